import type { OAuth2Tokens } from "@latchkey/core";
import type { GenericOAuthConfig, GenericOAuthUserInfo } from "../options.js";
import { fetchProfileJSON, unverifiedClaims } from "../profile.js";
import { OPENID_SCOPES, passthrough, placeholderEmail, type BaseOAuthProviderOptions } from "./base.js";

/** Options of {@link microsoftEntraId}. */
export interface MicrosoftEntraIdOptions extends BaseOAuthProviderOptions {
  /** The directory (tenant) id, a GUID. `common`, `organizations` and `consumers` are refused. */
  tenantId: string;
  /** Latchkey: another discovery document (a sovereign cloud, a local stand-in). */
  discoveryUrl?: string;
  /** Latchkey: another UserInfo endpoint. @default Microsoft Graph's */
  userInfoUrl?: string;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NAMESPACE = "microsoft-entra-id";
const str = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined;

function displayName(profile: Record<string, unknown>): string | undefined {
  const given = str(profile.given_name) ?? str(profile.givenname) ?? "";
  const family = str(profile.family_name) ?? str(profile.familyname) ?? "";
  return str(profile.name) ?? (`${given} ${family}`.trim() || undefined);
}

/**
 * The profile of an Entra sign-in. The ID token (verified against the tenant's JWKS before
 * this runs: the preset requires it) must carry `oid`, the object id that is stable across
 * applications (spec, Directory-identity provider 7); Graph's UserInfo adds claims only when
 * it names the same `sub`. A user without an email gets `<oid>@microsoft-entra-id.placeholder.invalid`,
 * never trusted as verified.
 */
async function entraProfile(tokens: OAuth2Tokens, userInfoUrl: string): Promise<GenericOAuthUserInfo | null> {
  const claims = unverifiedClaims(tokens.idToken);
  const oid = str(claims?.oid);
  if (!claims || !oid) return null;
  let info: Record<string, unknown> = {};
  if (tokens.accessToken) {
    const fetched = await fetchProfileJSON(userInfoUrl, { authorization: `Bearer ${tokens.accessToken}` });
    if (fetched && typeof claims.sub === "string" && fetched.sub === claims.sub) info = fetched;
  }
  const email = str(claims.email) ?? str(info.email);
  const verified = claims.email_verified ?? info.email_verified;
  return {
    ...info,
    ...claims,
    name: displayName(claims) ?? displayName(info),
    email: email ?? placeholderEmail(oid, NAMESPACE),
    image: str(claims.picture) ?? str(info.picture),
    emailVerified: email !== undefined && verified === true,
  };
}

/**
 * Microsoft Entra ID for one tenant, by discovery with verified ID tokens. Accounts are
 * keyed by the `oid` claim from the start. For multi-tenant sign-in use the built-in
 * Microsoft provider.
 */
export function microsoftEntraId(options: MicrosoftEntraIdOptions): GenericOAuthConfig<"microsoft-entra-id"> {
  const tenantId = typeof options.tenantId === "string" ? options.tenantId.toLowerCase() : "";
  if (!GUID.test(tenantId)) {
    throw new TypeError(
      "microsoftEntraId needs a concrete Microsoft Entra tenant GUID. Use the built-in Microsoft provider for common, organizations or consumers.",
    );
  }
  const base = `https://login.microsoftonline.com/${tenantId}`;
  const userInfoUrl = options.userInfoUrl ?? "https://graph.microsoft.com/oidc/userinfo";
  return {
    providerId: "microsoft-entra-id",
    discoveryUrl: options.discoveryUrl ?? `${base}/v2.0/.well-known/openid-configuration`,
    requireIdTokenVerification: true,
    ...(options.discoveryUrl
      ? {}
      : { authorizationUrl: `${base}/oauth2/v2.0/authorize`, tokenUrl: `${base}/oauth2/v2.0/token` }),
    userInfoUrl,
    ...passthrough(options, OPENID_SCOPES),
    accountSubject: ({ profile }) => str(profile.oid) ?? "",
    getUserInfo: (tokens) => entraProfile(tokens, userInfoUrl),
  };
}
