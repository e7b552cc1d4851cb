import {
  boundedFetch,
  OutboundFetchError,
  createAuthorizationURL,
  oauthFlow,
  remoteJWKS,
  validateAuthorizationCode,
  verifyIdToken,
  type OAuthProvider,
  type TokenEndpointAuth,
} from "@latchkey/core";
import type { ResolvedSSOOptions } from "./options.js";
import type { ProviderSource } from "./provider-reference.js";
import type { OIDCMapping, SSOProviderRow, StoredOIDCConfig } from "./schema.js";
import { emailInDomains } from "./domains.js";
import type { ObservedClaims } from "./user-resolution.js";

/** Scopes asked for when neither the request nor the provider names any (the reference's). */
export const DEFAULT_SCOPES = ["openid", "email", "profile", "offline_access"];

/** A provider found for a sign-in or callback: its id, the config and the issuer it is stored with. */
export interface FoundProvider {
  providerId: string;
  issuer: string;
  /** The configuration the flow uses (endpoints discovered at run time when stored without them). */
  config: StoredOIDCConfig;
  /** The OIDC configuration as stored (or configured), for the fingerprint. */
  storedConfig: Record<string, unknown>;
  samlConfig?: unknown;
  domain: string;
  /** Present only where the table has the column (or `defaultSSO` with domain verification). */
  domainVerified?: boolean | null | undefined;
  organizationId?: string | null | undefined;
  /** The stored row (absent for `defaultSSO` providers). */
  row?: SSOProviderRow | undefined;
  source: ProviderSource;
}

/** Set when a request to the IdP met a redirect it refused, so the callback can answer `oidc_endpoint_redirect`. */
export interface RequestObserver {
  redirectRefused: boolean;
  /** The verified ID token's claims and UserInfo's, once `getUserInfo` accepted them (for `resolveUser`). */
  claims?: ObservedClaims | undefined;
}

/** Runs a request to the IdP, noting a refused redirect before the error goes on. */
async function observed<T>(observer: RequestObserver | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (observer && error instanceof OutboundFetchError && error.code === "REDIRECT_REFUSED")
      observer.redirectRefused = true;
    throw error;
  }
}

/** The claim each user field is read from. */
function claimNames(mapping: OIDCMapping | undefined) {
  return {
    email: mapping?.email ?? "email",
    emailVerified: mapping?.emailVerified ?? "email_verified",
    name: mapping?.name ?? "name",
    image: mapping?.image ?? "picture",
  };
}

/**
 * Whether the IdP's `email_verified` claim (`true` or `"true"`) is believed: with the
 * deprecated `trustEmailVerified` (the reference's only rule), or (Latchkey, divergence row
 * 128) when the provider's domain is verified and covers the email, since the domain's owner
 * then answers for its addresses.
 */
function emailVerified(
  options: ResolvedSSOOptions,
  found: FoundProvider,
  email: string,
  claim: unknown,
): boolean {
  if (claim !== true && claim !== "true") return false;
  return (
    options.trustEmailVerified === true ||
    (found.domainVerified === true && emailInDomains(email, found.domain))
  );
}

/** The UserInfo response (OIDC Core §5.3), through core's bounded fetch (no redirects). */
async function fetchUserInfo(url: string, accessToken: string): Promise<Record<string, unknown> | null> {
  const response = await boundedFetch(url, {
    headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
  });
  if (!response.ok) return null;
  const data: unknown = await response.json().catch(() => null);
  return typeof data === "object" && data !== null && !Array.isArray(data)
    ? (data as Record<string, unknown>)
    : null;
}

/**
 * Core's OAuth provider for one SSO provider, from its stored endpoints: authorization code
 * with PKCE (unless `pkce: false`), the configured client authentication, the ID token
 * verified against `jwksEndpoint` (issuer, audience and `azp` = client id), UserInfo whose
 * `sub` must equal the ID token's, and the account id always `sub`.
 */
export function ssoOAuthProvider(
  found: FoundProvider,
  options: ResolvedSSOOptions,
  redirectURI: string,
  auth: TokenEndpointAuth = { method: "client_secret_basic" },
  observer?: RequestObserver,
): OAuthProvider {
  const { config, providerId } = found;
  const pkce = config.pkce !== false;
  const claims = claimNames(config.mapping);
  const idToken = config.jwksEndpoint
    ? {
        jwks: remoteJWKS(config.jwksEndpoint),
        issuer: found.issuer,
        audience: config.clientId,
        clientId: config.clientId,
      }
    : undefined;
  return {
    id: providerId,
    name: providerId,
    // Nominal: the authorization request and the code exchange use `redirectURI` itself.
    callbackPath: `/sso/callback/${encodeURIComponent(providerId)}`,
    flow: oauthFlow,
    disableImplicitSignUp: options.disableImplicitSignUp,
    options: {
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      disableImplicitSignUp: options.disableImplicitSignUp,
      overrideUserInfoOnSignIn: config.overrideUserInfo,
    },
    accountSubject: ({ profile }) => {
      const p = profile as Record<string, unknown>;
      return String((config.mapping?.id && options.legacyMappingId ? p[config.mapping.id] : p.sub) ?? "");
    },
    createAuthorizationURL(data) {
      if (!config.authorizationEndpoint)
        throw new Error(`SSO provider "${providerId}" has no authorization endpoint`);
      return createAuthorizationURL({
        authorizationEndpoint: config.authorizationEndpoint,
        clientId: config.clientId,
        redirectURI,
        state: data.state,
        codeVerifier: pkce ? data.codeVerifier : undefined,
        scopes: data.scopes?.length ? data.scopes : config.scopes?.length ? config.scopes : DEFAULT_SCOPES,
        loginHint: data.loginHint,
        additionalParams: data.additionalParams,
      });
    },
    async validateAuthorizationCode(data) {
      const { tokenEndpoint } = config;
      if (!tokenEndpoint) return null;
      return observed(observer, () =>
        validateAuthorizationCode({
          clientId: config.clientId,
          // A private_key_jwt client sends its assertion, never a secret.
          clientSecret: auth.method === "private_key_jwt" ? undefined : config.clientSecret,
          tokenEndpointAuth: auth,
          tokenEndpoint,
          code: data.code,
          redirectURI,
          codeVerifier: pkce ? data.codeVerifier : undefined,
        }),
      );
    },
    async getUserInfo(tokens) {
      let verified: Record<string, unknown> | null = null;
      if (tokens.idToken) {
        if (!idToken) return null;
        // OIDC Core §3.1.3.7: signature, iss, aud, azp and exp.
        verified = (await verifyIdToken(tokens.idToken, idToken)) as Record<string, unknown> | null;
        if (!verified) return null;
      }
      let profile = verified;
      let userInfo: Record<string, unknown> | null = null;
      if (config.userInfoEndpoint && tokens.accessToken) {
        const { accessToken } = tokens;
        const info = await observed(observer, () => fetchUserInfo(config.userInfoEndpoint!, accessToken));
        // OIDC Core §5.3.2: UserInfo must describe the subject of the ID token.
        if (!info || (verified && info.sub !== verified.sub)) return null;
        profile = { ...verified, ...info };
        userInfo = info;
      }
      if (!profile || typeof profile.sub !== "string" || !profile.sub) return null;
      const email = profile[claims.email];
      if (typeof email !== "string" || !email) return null;
      const name = profile[claims.name];
      const image = profile[claims.image];
      const extra: Record<string, unknown> = {};
      for (const [field, claim] of Object.entries(config.mapping?.extraFields ?? {}))
        extra[field] = profile[claim];
      if (observer) observer.claims = { verifiedIdToken: verified, userInfo };
      return {
        user: {
          ...extra,
          id: profile.sub,
          email: email.toLowerCase(),
          name: typeof name === "string" ? name : "",
          image: typeof image === "string" ? image : undefined,
          emailVerified: emailVerified(options, found, email, profile[claims.emailVerified]),
        },
        data: profile,
      };
    },
  };
}
