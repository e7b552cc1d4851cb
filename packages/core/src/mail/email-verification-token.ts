import { isEmail } from "../api/validation.js";
import { signJWT, verifyHS256 } from "../crypto/jwt.js";

/**
 * The two steps of a verified email change: the link mailed to the current address
 * (confirmation) mails a second link to the new address (verification), which applies it.
 */
export type EmailChangeStep = "change-email-confirmation" | "change-email-verification";

/** Claims of an email-verification token (spec, "What the service does" 7: a stateless HS256 JWT). */
export interface EmailVerificationClaims {
  /** The address the token was issued for, lower-cased. */
  email: string;
  /** The address an email change moves to, lower-cased. */
  updateTo?: string;
  requestType?: string;
}

/** Why a token was refused, as the reference's error codes name it. */
export type TokenFailure = "INVALID_TOKEN" | "TOKEN_EXPIRED";

/**
 * Signs a verification token with the reference's claims and order: `email`, then `updateTo`
 * (left out when undefined, as JSON drops it), the extra claims, then `iat` and `exp`. A
 * token minted here verifies on the reference and the other way round (same secret).
 */
export function createEmailVerificationToken(
  secret: string,
  email: string,
  updateTo?: string,
  expiresIn = 3600,
  requestType?: EmailChangeStep,
): Promise<string> {
  return signJWT(
    { email: email.toLowerCase(), updateTo: updateTo?.toLowerCase(), ...(requestType && { requestType }) },
    secret,
    expiresIn,
  );
}

/**
 * Verifies a token: the signature under the secret with HS256 only, then `exp` with no
 * clock tolerance (RFC 7519 §4.1.4), then the claims' shape. The signature is checked
 * before the claims, as jose does for the reference, so an expired token with a bad
 * signature is INVALID_TOKEN, never a hint that it once was valid.
 */
export async function verifyEmailVerificationToken(
  secret: string,
  token: string,
): Promise<{ claims: EmailVerificationClaims } | { failure: TokenFailure }> {
  const verified = await verifyHS256(token, secret);
  if (!("payload" in verified)) {
    return { failure: verified.failure === "expired" ? "TOKEN_EXPIRED" : "INVALID_TOKEN" };
  }
  const { email, updateTo, requestType } = verified.payload;
  // Another token signed with the same secret (a JWT cookie cache, say) has no usable
  // `email`: refused as invalid. The reference throws its parse error here (a 500).
  if (!isEmail(email)) return { failure: "INVALID_TOKEN" };
  if (updateTo !== undefined && typeof updateTo !== "string") return { failure: "INVALID_TOKEN" };
  if (requestType !== undefined && typeof requestType !== "string") return { failure: "INVALID_TOKEN" };
  return { claims: { email, updateTo, requestType } };
}

/** The link mailed for a token: `<baseURL>/verify-email?token=…&callbackURL=<encoded, default "/">`. */
export function verificationLink(baseURL: string, token: string, callbackURL: string | undefined): string {
  return `${baseURL}/verify-email?token=${token}&callbackURL=${encodeURIComponent(callbackURL || "/")}`;
}
