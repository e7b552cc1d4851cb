import type { OIDCDiscoveryDocument } from "./discovery.js";
import { boundedFetch, type BoundedFetchOptions } from "../net/bounded-fetch.js";
import type { OAuth2UserInfo, OAuthMappedUser } from "./types.js";

/** GET UserInfo with the access token (OIDC Core §5.3.1); null on any failure. */
async function fetchUserInfo(
  endpoint: string,
  accessToken: string,
  fetchOptions: BoundedFetchOptions | undefined,
): Promise<Record<string, unknown> | null> {
  try {
    const response = await boundedFetch(
      endpoint,
      { method: "GET", headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" } },
      fetchOptions,
    );
    if (!response.ok) return null;
    const data: unknown = await response.json();
    return typeof data === "object" && data !== null && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The profile of a sign-in: the verified ID-token claims when they carry `sub` and `email`
 * (no extra round trip, as the reference does), else the UserInfo response. OIDC Core §5.3.2:
 * UserInfo's `sub` must equal the ID token's, or the response is for someone else (token
 * substitution) and is refused. Verified claims win over UserInfo for keys both carry.
 */
export async function readUserInfo(
  doc: OIDCDiscoveryDocument,
  claims: Record<string, unknown> | null,
  accessToken: string | undefined,
  fetchOptions?: BoundedFetchOptions,
): Promise<Record<string, unknown> | null> {
  if (claims && typeof claims.sub === "string" && typeof claims.email === "string") return claims;
  if (!doc.userinfo_endpoint || !accessToken) return claims;
  const info = await fetchUserInfo(doc.userinfo_endpoint, accessToken, fetchOptions);
  if (!info) return claims;
  if (typeof info.sub !== "string" || info.sub === "") return claims;
  if (claims && info.sub !== claims.sub) return null;
  return { ...info, ...claims };
}

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/**
 * Standard OIDC claims (OIDC Core §5.1) to user fields, then the application's mapping on
 * top (it may fill additional user fields). `email_verified` counts only as a real `true`:
 * a provider that leaves it out has not verified anything.
 */
export async function profileToUser(
  profile: Record<string, unknown>,
  map?: (profile: Record<string, unknown>) => OAuthMappedUser | Promise<OAuthMappedUser>,
): Promise<OAuth2UserInfo> {
  const mapped = map ? await map(profile) : {};
  const user: OAuth2UserInfo = {
    name: text(profile.name),
    email: text(profile.email) ?? null,
    image: text(profile.picture),
    emailVerified: profile.email_verified === true,
    ...mapped,
  };
  // The account id comes from `accountSubject`; a mapping cannot redefine it.
  delete user.id;
  user.emailVerified = user.emailVerified === true;
  return user;
}
