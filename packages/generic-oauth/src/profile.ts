import { decodeJwt } from "jose";
import { boundedFetch, type OAuth2Tokens, type OAuth2UserInfo } from "@latchkey/core";
import type { GenericOAuthConfig, GenericOAuthUserInfo } from "./options.js";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/** GET a JSON object with the access token (OIDC Core §5.3.1, or a plain profile endpoint); null on any failure. */
export async function fetchProfileJSON(
  url: string,
  headers: Record<string, string>,
): Promise<Record<string, unknown> | null> {
  try {
    const response = await boundedFetch(url, {
      method: "GET",
      headers: { accept: "application/json", ...headers },
    });
    if (!response.ok) return null;
    const data: unknown = await response.json();
    return isObject(data) ? data : null;
  } catch {
    return null;
  }
}

/** The claims of an ID token read without verification, or null when it is no JWT. */
export function unverifiedClaims(idToken: string | undefined): Record<string, unknown> | null {
  if (!idToken) return null;
  try {
    return decodeJwt(idToken);
  } catch {
    return null;
  }
}

/**
 * The reference's default profile: ID-token claims carrying `sub` and `email` (verified when
 * the provider has a JWKS; otherwise taken from the TLS-protected token response, OIDC Core
 * §3.1.3.7) save a round trip; else the UserInfo endpoint with the access token. When a
 * verified ID token is at hand, a UserInfo answer naming another `sub` is refused (OIDC Core
 * §5.3.2: token substitution).
 */
export async function readDefaultProfile(
  tokens: OAuth2Tokens,
  verified: Record<string, unknown> | null,
  userInfoUrl: string | undefined,
): Promise<GenericOAuthUserInfo | null> {
  const claims = verified ?? unverifiedClaims(tokens.idToken);
  if (claims && claims.sub && claims.email) {
    return {
      id: String(claims.sub),
      emailVerified: claims.email_verified === true,
      image: text(claims.picture),
      ...claims,
    };
  }
  if (!userInfoUrl || !tokens.accessToken) return null;
  const info = await fetchProfileJSON(userInfoUrl, { authorization: `Bearer ${tokens.accessToken}` });
  if (!info) return null;
  if (verified && info.sub !== undefined && info.sub !== verified.sub) return null;
  return {
    ...info,
    email: typeof info.email === "string" ? info.email : undefined,
    emailVerified: info.email_verified === true,
    image: typeof info.picture === "string" ? info.picture : undefined,
    name: typeof info.name === "string" ? info.name : undefined,
  };
}

/**
 * The local user fields of a raw profile: its normalised `email`, `emailVerified`, `image`
 * and `name`, then `mapProfileToUser` on top (it may fill additional user fields, spec
 * Social sign-in 8). The mapping cannot set the account id (spec Generic OAuth 2): that comes
 * from `accountSubject` on the raw profile.
 */
export async function profileToUser(
  raw: GenericOAuthUserInfo,
  map: GenericOAuthConfig["mapProfileToUser"],
): Promise<OAuth2UserInfo> {
  const mapped = map ? await map(raw) : {};
  const user: OAuth2UserInfo = {
    email: text(raw.email) ?? null,
    emailVerified: raw.emailVerified === true,
    image: text(raw.image),
    name: text(raw.name),
    ...mapped,
  };
  delete user.id;
  // A provider that does not say `true` has not verified anything.
  user.emailVerified = user.emailVerified === true;
  user.image = text(user.image);
  return user;
}
