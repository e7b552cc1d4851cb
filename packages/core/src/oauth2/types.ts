import type { JWTVerifyGetKey } from "jose";
import type { EndpointContext } from "../api/context.js";
import type { OAuthFlow } from "./flow.js";

/** A value or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/**
 * Tokens from a provider's token endpoint (RFC 6749 §5.1), with `expires_in` turned into
 * absolute dates. Field names are the reference's, so provider packages port as is.
 */
export interface OAuth2Tokens {
  tokenType?: string | undefined;
  accessToken?: string | undefined;
  refreshToken?: string | undefined;
  accessTokenExpiresAt?: Date | undefined;
  refreshTokenExpiresAt?: Date | undefined;
  /** Granted scopes (RFC 6749 §3.3: the response `scope`, split on spaces). */
  scopes?: string[] | undefined;
  idToken?: string | undefined;
  /** The whole token response, for provider-specific fields. Never log it: it holds tokens. */
  raw?: Record<string, unknown> | undefined;
}

/** Local user attributes normalised from a provider profile (plus mapped additional fields). */
export interface OAuth2UserInfo {
  name?: string | undefined;
  email?: string | null | undefined;
  image?: string | undefined;
  emailVerified: boolean;
  [field: string]: unknown;
}

/** What `mapProfileToUser` returns: user attributes and additional user fields. */
export interface OAuthMappedUser {
  name?: string;
  email?: string | null;
  image?: string;
  emailVerified?: boolean;
  [field: string]: unknown;
}

/** Provider data an account subject is derived from (never the mapped local user). */
export interface OAuthAccountKeyContext<Profile extends object = Record<string, unknown>> {
  tokens: OAuth2Tokens;
  profile: Profile;
}

/** Request metadata passed to refresh hooks by `/get-access-token` and `/refresh-token`. */
export interface OAuthRefreshContext {
  headers?: Headers | undefined;
  request?: Request | undefined;
}

/**
 * How a client-submitted ID token is verified (the reference's `OAuthIdTokenConfig`): a JWKS
 * with the expected issuer, audience and algorithms, or a custom verifier. A provider without
 * one refuses ID-token sign-in: verification fails closed.
 */
export type OAuthIdTokenConfig =
  | {
      /** Key resolver for the JWS signature (e.g. jose `createRemoteJWKSet`). */
      jwks: JWTVerifyGetKey;
      /** Expected `iss`; omit only for providers whose issuer varies per tenant. */
      issuer?: string | string[] | undefined;
      /** Expected `aud`, usually the client id. */
      audience: string | string[];
      /** Permitted JWS algorithms. @default the asymmetric algorithms (never `none` or HS*) */
      algorithms?: string[] | undefined;
      /** Largest accepted token age, e.g. `"1h"`. */
      maxTokenAge?: string | undefined;
      /** `exact-or-sha256` also accepts the SHA-256 hex of the nonce (Apple). @default "exact" */
      nonceComparison?: "exact" | "exact-or-sha256" | undefined;
      /** Accept non-JWS tokens unverified; identity then comes from the userinfo call. */
      allowOpaqueToken?: boolean | undefined;
      /** Provider-specific claim check run after the standard ones; `false` refuses. */
      verifyClaims?: ((claims: Record<string, unknown>) => boolean) | undefined;
    }
  | {
      /** Custom verifier (remote verification endpoints). */
      verify: (token: string, nonce?: string, ctx?: EndpointContext) => Promise<boolean>;
    };

/** Options every provider accepts (the reference's `ProviderOptions`). */
export interface ProviderOptions<Profile extends object = Record<string, unknown>> {
  /** Client id; with an array, the first is used at the token endpoint, all are accepted audiences. */
  clientId?: string | string[] | undefined;
  clientSecret?: string | undefined;
  /** Scopes requested in addition to the provider's defaults. */
  scope?: string[] | undefined;
  disableDefaultScope?: boolean | undefined;
  /** Redirect URI registered with the provider. @default `<baseURL>/callback/<id>` */
  redirectURI?: string | undefined;
  authorizationEndpoint?: string | undefined;
  /** Refuse `POST /sign-in/social` with an `idToken`. */
  disableIdTokenSignIn?: boolean | undefined;
  /** Replaces the provider's ID-token verification. */
  verifyIdToken?: ((token: string, nonce?: string, ctx?: EndpointContext) => Promise<boolean>) | undefined;
  getUserInfo?:
    ((token: OAuth2Tokens) => Promise<{ user: OAuth2UserInfo; data: Profile } | null>) | undefined;
  refreshAccessToken?: ((refreshToken: string) => Promise<OAuth2Tokens>) | undefined;
  // Method syntax on purpose: it keeps a provider typed by its own profile
  // (`OAuthProvider<GitHubProfile>`) assignable where any provider is expected.
  mapProfileToUser?(profile: Profile): Awaitable<OAuthMappedUser>;
  /** New users only with `requestSignUp: true`. */
  disableImplicitSignUp?: boolean | undefined;
  disableSignUp?: boolean | undefined;
  prompt?: "select_account" | "consent" | "login" | "none" | "select_account consent" | undefined;
  responseMode?: "query" | "form_post" | undefined;
  /** Overwrite the user's name, image and mapped fields on every sign-in. @default false */
  overrideUserInfoOnSignIn?: boolean | undefined;
  /** No session until the user's email is verified (the user and account are still created). @default false */
  requireEmailVerification?: boolean | undefined;
}

/**
 * An OAuth 2.0 / OpenID Connect provider as the social routes use it. The shape and method
 * names are the reference's `OAuthProvider`, so provider packages and a reference-style
 * `socialProviders` config fit.
 */
export interface OAuthProvider<Profile extends object = Record<string, unknown>> {
  id: string;
  name: string;
  /** Callback path under the base URL. @default `/callback/<id>` */
  callbackPath?: string | undefined;
  createAuthorizationURL(data: {
    state: string;
    codeVerifier: string;
    scopes?: string[] | undefined;
    redirectURI: string;
    display?: string | undefined;
    loginHint?: string | undefined;
    /** The OIDC nonce kept in the state; providers with `requiresIdTokenNonce` must send it. */
    idTokenNonce?: string | undefined;
    /** Extra query parameters; reserved ones are dropped by `createAuthorizationURL`. */
    additionalParams?: Record<string, string> | undefined;
  }): Awaitable<URL>;
  /** The stable provider subject (OIDC: `sub`), read from the raw profile, never the mapped user. */
  accountSubject(context: OAuthAccountKeyContext<Profile>): Awaitable<string | number>;
  validateAuthorizationCode(data: {
    code: string;
    redirectURI: string;
    codeVerifier?: string | undefined;
    deviceId?: string | undefined;
  }): Promise<OAuth2Tokens | null>;
  getUserInfo(
    tokens: OAuth2Tokens & {
      /** The nonce from the state: ID-token claims are trusted only when it matches. */
      expectedIdTokenNonce?: string | undefined;
      user?: { name?: { firstName?: string; lastName?: string }; email?: string } | undefined;
    },
  ): Promise<{ user: OAuth2UserInfo; data: Profile } | null>;
  refreshAccessToken?:
    ((refreshToken: string, ctx?: OAuthRefreshContext) => Promise<OAuth2Tokens>) | undefined;
  revokeToken?: ((token: string) => Promise<void>) | undefined;
  createEndSessionURL?:
    | ((data: {
        idToken?: string | null;
        postLogoutRedirectURI?: string;
        state?: string;
      }) => Awaitable<URL | null>)
    | undefined;
  /** ID-token verification for `POST /sign-in/social` and `/link-social` with an `idToken`. */
  idToken?: OAuthIdTokenConfig | undefined;
  /** Expected `iss` of authorization responses (RFC 9207). */
  issuer?: string | undefined;
  /**
   * Latchkey: whether an authorization response without `iss` must be refused (RFC 9207 §2.4:
   * once the server advertises `authorization_response_iss_parameter_supported`).
   */
  requiresIssuerParameter?: (() => Awaitable<boolean>) | undefined;
  /** Bind the redirect flow's ID token to a nonce kept in the state (OIDC Core §3.1.2.1). */
  requiresIdTokenNonce?: boolean | undefined;
  disableImplicitSignUp?: boolean | undefined;
  disableSignUp?: boolean | undefined;
  /** Accept callbacks without `state` by restarting the flow. @default false */
  allowIdpInitiated?: boolean | undefined;
  options?: ProviderOptions<Profile> | undefined;
  /**
   * Latchkey: the code the social routes run with this provider (`oauthFlow`). Provider
   * builders set it; the routes treat a provider without it as not configured.
   */
  flow?: OAuthFlow | undefined;
}
