import type {
  Awaitable,
  OAuth2Tokens,
  OAuth2UserInfo,
  OAuthAccountKeyContext,
  OAuthMappedUser,
  OAuthRefreshContext,
  TokenEndpointAuth,
} from "@latchkey/core";

/** A provider's raw profile: the ID-token claims or the UserInfo answer, plus normalised fields. */
export type GenericOAuthUserInfo = Omit<OAuth2UserInfo, "id" | "emailVerified"> & {
  id?: string | number | null | undefined;
  sub?: string | number | null | undefined;
  emailVerified?: boolean | null | undefined;
  [key: string]: unknown;
};

/** Options of `genericOAuth()`. */
export interface GenericOAuthOptions<ID extends string = string> {
  /** One entry per provider. */
  config: GenericOAuthConfig<ID>[];
  /**
   * Also serve the 1.0 routes `POST /sign-in/oauth2`, `GET|POST /oauth2/callback/:id` and
   * `POST /oauth2/link`, whose flows use `<baseURL>/oauth2/callback/<id>` as redirect URI.
   * @deprecated use `/sign-in/social`, `/callback/:id` and `/link-social`; will be removed.
   * @default false
   */
  legacyRoutes?: boolean;
}

/** One OAuth 2.0 / OpenID Connect provider (the reference's `GenericOAuthConfig`). */
export interface GenericOAuthConfig<ID extends string = string> {
  /** Provider id: the `provider` of `/sign-in/social` and the account's `providerId`. */
  providerId: ID;
  /** @default providerId */
  name?: string | undefined;
  /**
   * The stable provider subject the account is keyed by, read from the raw profile (never
   * the mapped user). @default `sub` for OpenID providers found by discovery, else `id`
   */
  accountSubject?:
    ((context: OAuthAccountKeyContext<GenericOAuthUserInfo>) => Awaitable<string | number>) | undefined;
  /** OpenID configuration document; fills the endpoints the config leaves out. */
  discoveryUrl?: string | undefined;
  /**
   * Refuse the provider unless discovery yields an issuer and a JWKS to verify ID tokens with
   * (with discovery: skipped and logged; without: a `TypeError`). @default false
   */
  requireIdTokenVerification?: boolean | undefined;
  authorizationUrl?: string | undefined;
  tokenUrl?: string | undefined;
  userInfoUrl?: string | undefined;
  /** OIDC RP-initiated logout endpoint. @default the discovered `end_session_endpoint` */
  endSessionEndpoint?: string | undefined;
  /** Where the provider returns after logout (resolved against the base URL). */
  postLogoutRedirectURI?: string | undefined;
  /** No provider logout URL on `/sign-out`. @default false */
  disableProviderLogout?: boolean | undefined;
  clientId: string;
  clientSecret?: string | undefined;
  /** Client authentication at the token endpoint; wins over `authentication`. */
  tokenEndpointAuth?: TokenEndpointAuth | undefined;
  /** Scopes requested after those of the request (`openid` is added for OpenID providers). @default [] */
  scopes?: string[] | undefined;
  /** @default `<baseURL>/callback/<providerId>` */
  redirectURI?: string | undefined;
  /** @default "code" */
  responseType?: string | undefined;
  responseMode?: "query" | "form_post" | undefined;
  prompt?:
    | "none"
    | "login"
    | "create"
    | "consent"
    | "select_account"
    | "select_account consent"
    | "login consent"
    | undefined;
  /** Send PKCE (RFC 7636, S256). Turn off only for providers that refuse it. @default true */
  pkce?: boolean | undefined;
  /** E.g. `offline` to ask for a refresh token. */
  accessType?: string | undefined;
  /** Seconds, used when the token response has no `expires_in`. */
  accessTokenExpiresIn?: number | undefined;
  /** Replaces the code exchange. */
  getToken?:
    | ((data: {
        code: string;
        redirectURI: string;
        codeVerifier?: string | undefined;
        deviceId?: string | undefined;
      }) => Promise<OAuth2Tokens>)
    | undefined;
  /** Replaces the profile fetch (runs after the ID token, if any, was verified). */
  getUserInfo?: ((tokens: OAuth2Tokens) => Promise<GenericOAuthUserInfo | null>) | undefined;
  /** Maps the raw profile to user fields, additional user fields included. */
  mapProfileToUser?:
    ((profile: GenericOAuthUserInfo) => OAuthMappedUser | Promise<OAuthMappedUser>) | undefined;
  /** Extra authorization parameters (reserved ones are ignored). */
  authorizationUrlParams?: Record<string, string> | undefined;
  /** Extra token-request parameters (reserved ones are ignored). */
  tokenUrlParams?: Record<string, string> | undefined;
  /** Extra refresh parameters; `grant_type`, `refresh_token` and client fields cannot be set. */
  refreshTokenParams?:
    | Record<string, string>
    | ((ctx?: OAuthRefreshContext) => Awaitable<Record<string, string> | undefined>)
    | undefined;
  disableImplicitSignUp?: boolean | undefined;
  disableSignUp?: boolean | undefined;
  /** Legacy token-endpoint authentication style. @default "post" */
  authentication?: "basic" | "post" | undefined;
  /** Headers of the discovery request. */
  discoveryHeaders?: Record<string, string> | undefined;
  /** Headers of the code-exchange request. */
  authorizationHeaders?: Record<string, string> | undefined;
  /** Overwrite the user's name, image and mapped fields on every sign-in. @default false */
  overrideUserInfo?: boolean | undefined;
  /** No session until the email is verified. @default false */
  requireEmailVerification?: boolean | undefined;
  /** Accept callbacks without `state` by restarting the flow. @default false */
  allowIdpInitiated?: boolean | undefined;
  /** Do not bind discovered OpenID providers' ID tokens to a nonce. @default false */
  disableIdTokenNonceBinding?: boolean | undefined;
  /**
   * Expected `iss` of authorization responses (RFC 9207).
   * @deprecated discovery supplies the issuer; still honoured.
   */
  issuer?: string | undefined;
  /**
   * Refuse authorization responses without `iss` (RFC 9207 §2.4).
   * @deprecated discovery's `authorization_response_iss_parameter_supported` decides; still honoured.
   * @default false
   */
  requireIssuerValidation?: boolean | undefined;
}
