import { generateRandomString, type CookieSpec, type EndpointContext } from "@latchkey/core";
import { PASSKEY_ERROR_CODES } from "./error-codes.js";
import type { ResolvedPasskeyOptions } from "./options.js";

/** How long a ceremony may take: the cookie's Max-Age and the verification row's lifetime (reference). */
export const CHALLENGE_MAX_AGE_SECONDS = 300;

/** The two ceremonies a challenge belongs to. */
export type Ceremony = "registration" | "authentication";

/**
 * A pending ceremony as the reference stores it: the JSON `value` of a `verification` row whose
 * identifier is the random token the challenge cookie carries. Reference and Latchkey each
 * redeem what the other wrote.
 */
export interface StoredChallenge {
  type: Ceremony;
  expectedChallenge: string;
  /** Registration: the user the passkey is for; authentication: the signed-in user or "". */
  userData: { id: string; name?: string | undefined; displayName?: string | undefined };
  /** Registration only: the `context` query parameter, or null. */
  context?: string | null;
}

/** The challenge cookie: `<prefix>.<advanced.webAuthnChallengeCookie>` with the auth cookie attributes. */
export const challengeCookie = (ctx: EndpointContext, options: ResolvedPasskeyOptions): CookieSpec =>
  ctx.context.authCookies.create(options.advanced.webAuthnChallengeCookie);

/** Stores the ceremony under a fresh 32-character token and sets the signed cookie naming it. */
export async function startChallenge(
  ctx: EndpointContext,
  options: ResolvedPasskeyOptions,
  challenge: StoredChallenge,
): Promise<void> {
  const token = generateRandomString(32);
  const cookie = challengeCookie(ctx, options);
  await ctx.setSignedCookie(cookie.name, token, { ...cookie.attributes, maxAge: CHALLENGE_MAX_AGE_SECONDS });
  await ctx.context.internalAdapter.createVerificationValue(
    {
      identifier: token,
      value: JSON.stringify(challenge),
      expiresAt: new Date(Date.now() + CHALLENGE_MAX_AGE_SECONDS * 1000),
    },
    ctx,
  );
}

/**
 * Redeems the challenge the request's cookie names, once: the verification row is consumed
 * atomically, so of parallel requests carrying the same cookie exactly one gets it. A missing
 * or forged cookie, a consumed or expired row, an unreadable value or one of the other ceremony
 * are all 400 `CHALLENGE_NOT_FOUND` (the reference's answer for each).
 */
export async function redeemChallenge(
  ctx: EndpointContext,
  options: ResolvedPasskeyOptions,
  ceremony: Ceremony,
): Promise<StoredChallenge> {
  const notFound = () => PASSKEY_ERROR_CODES.fail("CHALLENGE_NOT_FOUND", "BAD_REQUEST");
  const token = await ctx.getSignedCookie(challengeCookie(ctx, options).name);
  if (!token) throw notFound();
  const row = await ctx.context.internalAdapter.consumeVerificationValue(token);
  if (!row) throw notFound();
  const stored = parseChallenge(row.value);
  if (!stored || stored.type !== ceremony) throw notFound();
  return stored;
}

/** The stored JSON when it has the shape a ceremony needs, else null. */
function parseChallenge(value: string): StoredChallenge | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const { type, expectedChallenge, userData } = parsed as Partial<StoredChallenge>;
  if (typeof type !== "string" || typeof expectedChallenge !== "string") return null;
  if (typeof userData !== "object" || userData === null || typeof userData.id !== "string") return null;
  return parsed as StoredChallenge;
}
