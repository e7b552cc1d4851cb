import {
  base64UrlEncode,
  constantTimeEqual,
  generateRandomString,
  symmetricDecrypt,
  symmetricEncrypt,
  utf8Encode,
  type AuthContext,
  type EndpointContext,
} from "@latchkey/core";
import type { OTPType, ResolvedEmailOTPOptions } from "./options.js";

/**
 * The verification row's identifier: `<type>-otp-<email>` (the reference's format; callers
 * pass the address lower-cased, and `<current>-<new>` for email changes).
 */
export const otpIdentifier = (type: OTPType, email: string): string => `${type}-otp-${email}`;

/** The row's value: the stored code and the wrong attempts so far, `<stored>:<attempts>`. */
export const otpValue = (stored: string, attempts: number): string => `${stored}:${attempts}`;

/**
 * Splits a value at its last colon (an encrypted code contains none, a custom hash might): the
 * stored code and the attempt count (0 when absent or unreadable).
 */
export function readOTPValue(value: string): { stored: string; attempts: number } {
  const at = value.lastIndexOf(":");
  if (at === -1) return { stored: value, attempts: 0 };
  const attempts = Number.parseInt(value.slice(at + 1), 10);
  return { stored: value.slice(0, at), attempts: Number.isNaN(attempts) ? 0 : attempts };
}

/** SHA-256 of the code as unpadded base64url: the reference's "hashed" form. */
async function sha256(otp: string): Promise<string> {
  return base64UrlEncode(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Encode(otp))));
}

/** A new code: the app's `generateOTP`, else `otpLength` random digits. */
export function newOTP(ctx: EndpointContext | undefined, options: ResolvedEmailOTPOptions, email: string, type: OTPType): string {
  return options.generateOTP?.({ email, type }, ctx) || generateRandomString(options.otpLength, "0-9");
}

/** The code as the row stores it: as is, hashed, encrypted with the secret (XChaCha20-Poly1305), or the app's own. */
export async function storeOTP(auth: AuthContext, options: ResolvedEmailOTPOptions, otp: string): Promise<string> {
  const { storeOTP: how } = options;
  if (how === "encrypted") return symmetricEncrypt({ key: auth.secret, data: otp });
  if (how === "hashed") return sha256(otp);
  if (typeof how === "object") return "hash" in how ? how.hash(otp) : how.encrypt(otp);
  return otp;
}

/** Whether `otp` is the stored code; constant-time, and false for a stored value that does not decrypt. */
export async function matchesStoredOTP(
  ctx: EndpointContext,
  options: ResolvedEmailOTPOptions,
  stored: string,
  otp: string,
): Promise<boolean> {
  const { storeOTP: how } = options;
  try {
    if (how === "encrypted") return constantTimeEqual(await symmetricDecrypt({ key: ctx.context.secret, data: stored }), otp);
    if (how === "hashed") return constantTimeEqual(await sha256(otp), stored);
    if (typeof how === "object" && "hash" in how) return constantTimeEqual(await how.hash(otp), stored);
    if (typeof how === "object") return constantTimeEqual(await how.decrypt(stored), otp);
  } catch {
    return false;
  }
  return constantTimeEqual(otp, stored);
}

/** The plain code back from a stored one; null when it was hashed (or does not decrypt). */
export async function recoverOTP(auth: AuthContext, options: ResolvedEmailOTPOptions, stored: string): Promise<string | null> {
  const { storeOTP: how } = options;
  try {
    if (how === "plain") return stored;
    if (how === "encrypted") return await symmetricDecrypt({ key: auth.secret, data: stored });
    if (typeof how === "object" && "decrypt" in how) return await how.decrypt(stored);
  } catch {
    return null;
  }
  return null;
}
