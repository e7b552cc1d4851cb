import { base64UrlEncode, generateRandomString, type EndpointContext, type SessionWithUser } from "@latchkey/core";
import type { ResolvedOneTimeTokenOptions } from "./options.js";

/** Verification identifier of a stored token (reference: `one-time-token:<token or its hash>`). */
const identifier = (stored: string): string => `one-time-token:${stored}`;

/** The token as stored: itself, SHA-256 as unpadded base64url (reference "hashed"), or the custom hash. */
async function storedForm(options: ResolvedOneTimeTokenOptions, token: string): Promise<string> {
  const store = options.storeToken;
  if (store === "hashed") {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
    return base64UrlEncode(new Uint8Array(digest));
  }
  if (typeof store === "object") return store.hash(token);
  return token;
}

/**
 * Makes a token for `session` and stores `one-time-token:<stored form>` → the session token,
 * valid for `expiresIn` minutes. Returns the token itself (never stored when hashed).
 */
export async function issueToken(
  ctx: EndpointContext,
  options: ResolvedOneTimeTokenOptions,
  session: SessionWithUser,
): Promise<string> {
  const token = options.generateToken ? await options.generateToken(session, ctx) : generateRandomString(32);
  await ctx.context.internalAdapter.createVerificationValue({
    identifier: identifier(await storedForm(options, token)),
    value: session.session.token,
    expiresAt: new Date(Date.now() + options.expiresInMs),
  });
  return token;
}

/**
 * Spends a token: the stored value is taken in one atomic step (a conditional delete), so of
 * any number of concurrent redemptions exactly one gets the session token and the others
 * nothing. Null for an unknown, spent or expired token.
 */
export async function redeemToken(
  ctx: EndpointContext,
  options: ResolvedOneTimeTokenOptions,
  token: string,
): Promise<string | null> {
  const row = await ctx.context.internalAdapter.consumeVerificationValue(identifier(await storedForm(options, token)));
  return row?.value ?? null;
}
