import {
  base64Encode,
  boundedFetch,
  refreshAccessToken,
  remoteJWKS,
  type ClientAssertionContext,
  type OAuthIdTokenConfig,
} from "@latchkey/core";
import { defineProvider, type ProviderFactory } from "../define-provider.js";
import { idTokenClaims, textClaim } from "../id-token-claims.js";
import { clientIds, primaryClientId, type SocialProviderOptions } from "../options.js";

/** Microsoft Entra ID token claims (the profile), `picture` added from Graph. */
export interface MicrosoftEntraIDProfile extends Record<string, unknown> {
  /** The user's object id: the same for every app of the tenant; the account id by default. */
  oid?: string;
  /** Pairwise subject: differs per app; the account id with `accountIdClaim: "sub"` (1.0). */
  sub: string;
  tid?: string;
  name?: string;
  email?: string;
  preferred_username?: string;
  email_verified?: boolean;
  verified_primary_email?: string[];
  verified_secondary_email?: string[];
  /** `data:image/jpeg;base64, …` from Graph, unless `disableProfilePhoto`. */
  picture?: string;
}

/** Options of {@link microsoft}: tenant, authority, client assertion, photo and account id claim. */
export interface MicrosoftOptions extends SocialProviderOptions<MicrosoftEntraIDProfile> {
  /** `common`, `organizations`, `consumers`, or a tenant id / domain. @default "common" */
  tenantId?: string | undefined;
  /** Authority host, e.g. `https://<tenant>.ciamlogin.com`. @default "https://login.microsoftonline.com" */
  authority?: string | undefined;
  /** Signs a client assertion (private_key_jwt) instead of sending `clientSecret`; not both. */
  clientAssertion?: ((context: ClientAssertionContext) => string | Promise<string>) | undefined;
  /** @default 48 */
  profilePhotoSize?: 48 | 64 | 96 | 120 | 240 | 360 | 432 | 504 | 648 | undefined;
  /** Skip the Graph photo request. @default false */
  disableProfilePhoto?: boolean | undefined;
  /**
   * The claim the account id comes from. `"sub"` keeps 1.0's ids (spec, Directory-identity
   * provider 4); migrate rows with `migrateMicrosoftAccountIds` before leaving it. @default "oid"
   */
  accountIdClaim?: "oid" | "sub" | undefined;
}

/** The fixed tenant id of personal Microsoft accounts (the `tid` of every consumer token). */
export const MICROSOFT_CONSUMER_TENANT_ID = "9188040d-6c67-4c5b-b112-36a304b66dad";
const MULTI_TENANT = new Set(["common", "organizations", "consumers"]);
const SCOPES = ["openid", "profile", "email", "User.Read", "offline_access"];

const authorityOf = (options: MicrosoftOptions) =>
  (options.authority ?? "https://login.microsoftonline.com").replace(/\/+$/, "");
const tenantOf = (options: MicrosoftOptions) => options.tenantId || "common";

/**
 * ID-token checks. A single-tenant app pins the issuer. The multi-tenant endpoints cannot
 * (each tenant has its own issuer) and their key sets overlap, so the token must at least be
 * consistent with itself (`iss` is its own `tid`'s issuer) and of the allowed account class.
 */
function idTokenConfig(options: MicrosoftOptions, jwksURL: () => string): OAuthIdTokenConfig {
  const authority = authorityOf(options);
  const tenant = tenantOf(options);
  return {
    jwks: remoteJWKS(jwksURL),
    audience: clientIds(options.clientId),
    maxTokenAge: "1h",
    issuer: MULTI_TENANT.has(tenant) ? undefined : `${authority}/${tenant}/v2.0`,
    verifyClaims: (claims) => {
      const tid = claims.tid;
      if (typeof tid !== "string" || claims.iss !== `${authority}/${tid}/v2.0`) return false;
      if (tenant === "organizations") return tid !== MICROSOFT_CONSUMER_TENANT_ID;
      if (tenant === "consumers") return tid === MICROSOFT_CONSUMER_TENANT_ID;
      return true;
    },
  };
}

/** The Graph profile photo as the reference stores it (a JPEG data URL), or undefined. */
async function profilePhoto(graph: string, accessToken: string, size: number): Promise<string | undefined> {
  try {
    const response = await boundedFetch(`${graph}/me/photos/${size}x${size}/$value`, {
      method: "GET",
      headers: { authorization: `Bearer ${accessToken}` },
    });
    if (!response.ok) return undefined;
    // The space after the comma is the reference's; kept so both write the same `user.image`.
    return `data:image/jpeg;base64, ${base64Encode(new Uint8Array(await response.arrayBuffer()))}`;
  } catch {
    return undefined;
  }
}

const verifiedEmail = (profile: MicrosoftEntraIDProfile): boolean => {
  if (profile.email_verified !== undefined) return profile.email_verified === true;
  const email = profile.email;
  if (!email) return false;
  return !!(
    profile.verified_primary_email?.includes(email) || profile.verified_secondary_email?.includes(email)
  );
};

const base = defineProvider<MicrosoftEntraIDProfile, MicrosoftOptions>({
  id: "microsoft",
  name: "Microsoft EntraID",
  endpoints: (options) => {
    const root = `${authorityOf(options)}/${tenantOf(options)}`;
    return {
      authorization: `${root}/oauth2/v2.0/authorize`,
      token: `${root}/oauth2/v2.0/token`,
      jwks: `${root}/discovery/v2.0/keys`,
      graph: "https://graph.microsoft.com/v1.0",
    };
  },
  scopes: SCOPES,
  pkce: true,
  loginHint: true,
  idToken: (options, endpoint) => idTokenConfig(options, () => endpoint("jwks")),
  async profile({ tokens, options, endpoint }) {
    const claims = idTokenClaims(tokens.idToken);
    // Spec, Directory-identity provider 2: no usable account claim, no sign-in.
    if (!claims || !textClaim(claims[options.accountIdClaim ?? "oid"])) return null;
    const profile = { ...claims } as MicrosoftEntraIDProfile;
    if (!options.disableProfilePhoto && tokens.accessToken) {
      const photo = await profilePhoto(endpoint("graph"), tokens.accessToken, options.profilePhotoSize ?? 48);
      if (photo) profile.picture = photo;
    }
    return profile;
  },
  user: (profile) => ({
    name: profile.name ?? "",
    email: profile.email,
    image: profile.picture,
    emailVerified: verifiedEmail(profile),
  }),
  // Replaced below by the configured claim (`subject` does not see the options).
  subject: (profile) => profile.oid ?? "",
  customize(provider, options, endpoint) {
    const claim = options.accountIdClaim ?? "oid";
    provider.accountSubject = ({ profile }) => textClaim(profile[claim]) ?? "";
    if (options.refreshAccessToken) return;
    // Entra wants the scopes again on refresh (the reference sends the configured ones).
    const scopes = [...(options.disableDefaultScope ? [] : SCOPES), ...(options.scope ?? [])];
    provider.refreshAccessToken = (refreshToken) =>
      refreshAccessToken({
        clientId: primaryClientId(options.clientId),
        clientSecret: options.clientSecret,
        tokenEndpointAuth: options.tokenEndpointAuth,
        tokenEndpoint: endpoint("token"),
        refreshToken,
        extraParams: { scope: scopes.join(" ") },
      });
  },
});

/**
 * Microsoft Entra ID (provider id `microsoft`; the spec's directory-identity provider).
 * Endpoints: `authorization`, `token`, `jwks` under `<authority>/<tenantId>/`, and `graph`
 * (Graph v1.0, for the photo). Sends PKCE, `login_hint` and `prompt`; refresh repeats the
 * scopes. The profile is the ID token of the token response plus the Graph photo (skipped with
 * `disableProfilePhoto`). The account id is the `oid` claim (`accountIdClaim: "sub"` keeps
 * 1.0's ids); a token without it ends the sign-in with `unable_to_get_user_info` (ID-token
 * sign-in: 401 FAILED_TO_GET_USER_INFO). The email counts as verified per `email_verified`,
 * else when listed in `verified_primary_email` / `verified_secondary_email`. ID-token
 * sign-in: the tenant's issuer for a specific tenant; for `common`/`organizations`/
 * `consumers` the issuer must be the token's own tenant's and the account class allowed.
 * `clientAssertion` authenticates with private_key_jwt instead of `clientSecret`.
 */
export const microsoft: ProviderFactory<MicrosoftEntraIDProfile, MicrosoftOptions> = Object.assign(
  (options: MicrosoftOptions) => {
    if (options.clientAssertion && options.clientSecret) {
      throw new TypeError("Microsoft: clientAssertion cannot be combined with clientSecret.");
    }
    const getClientAssertion = options.clientAssertion;
    return base(
      getClientAssertion && !options.tokenEndpointAuth
        ? { ...options, tokenEndpointAuth: { method: "private_key_jwt", getClientAssertion } }
        : options,
    );
  },
  { id: "microsoft" },
);
