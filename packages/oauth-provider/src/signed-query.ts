import { base64Encode, constantTimeEqual, hmacSha256 } from "@latchkey/core";

/** Issued-at (milliseconds) of a signed interaction query. */
export const ISSUED_AT_PARAM = "ba_iat";
/** The session id for which the post-login step was completed (the reference's `ba_pl`). */
export const POST_LOGIN_PARAM = "ba_pl";
/** Lists every signed parameter name, so a page cannot add unsigned ones that pass as signed. */
export const SIGNED_NAMES_PARAM = "ba_param";

/** The parameters sorted by name, then value: the text the signature covers. */
function canonical(params: URLSearchParams): string {
  const entries = [...params.entries()].sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0));
  return new URLSearchParams(entries).toString();
}

/** Standard base64 HMAC-SHA256 under the auth secret (the reference's `makeSignature`). */
const signature = async (params: URLSearchParams, secret: string): Promise<string> =>
  base64Encode(await hmacSha256(secret, canonical(params)));

/**
 * The query a login or consent page receives: the authorization parameters plus `exp` (unix
 * seconds), `ba_iat`, the `ba_param` list and `sig`, so the page can hand it back as
 * `oauth_query` and the provider can trust it was not altered.
 */
export async function signQuery(query: URLSearchParams, secret: string, lifetimeSeconds: number, postLoginClearedFor?: string): Promise<string> {
  const params = new URLSearchParams(query);
  const issuedAt = Date.now();
  params.set("exp", String(Math.floor(issuedAt / 1000) + lifetimeSeconds));
  params.set(ISSUED_AT_PARAM, String(issuedAt));
  params.delete("sig");
  params.delete(POST_LOGIN_PARAM);
  // The session whose post-login step is done (the consent page's answer skips it), signed with the rest.
  if (postLoginClearedFor) params.set(POST_LOGIN_PARAM, postLoginClearedFor);
  params.delete(SIGNED_NAMES_PARAM);
  for (const name of [...new Set([...params.keys(), SIGNED_NAMES_PARAM])].sort()) params.append(SIGNED_NAMES_PARAM, name);
  params.set("sig", await signature(params, secret));
  return params.toString();
}

/** The signed parameters of `oauthQuery` when exactly one `sig` verifies and `exp` has not passed; else null. */
export async function verifySignedQuery(oauthQuery: string, secret: string): Promise<URLSearchParams | null> {
  const params = new URLSearchParams(oauthQuery);
  const sigs = params.getAll("sig");
  const exp = Number(params.get("exp"));
  params.delete("sig");
  if (sigs.length !== 1 || !sigs[0]) return null;
  const expected = await signature(params, secret);
  // Constant time: the signature guards the whole authorization request.
  if (!constantTimeEqual(sigs[0], expected)) return null;
  if (!Number.isFinite(exp) || exp * 1000 < Date.now()) return null;
  return params;
}
