import type { Awaitable, OAuth2Tokens, User } from "@latchkey/core";
import type { OIDCMapping, SSOProviderRow, TokenEndpointAuthentication } from "./schema.js";

/** A provider configured in code (`defaultSSO`), looked up before the database. */
export interface DefaultSSOProvider {
  domain: string;
  providerId: string;
  oidcConfig?: {
    issuer: string;
    clientId: string;
    clientSecret?: string;
    discoveryEndpoint?: string;
    authorizationEndpoint?: string;
    tokenEndpoint?: string;
    userInfoEndpoint?: string;
    jwksEndpoint?: string;
    tokenEndpointAuthentication?: TokenEndpointAuthentication;
    pkce?: boolean;
    scopes?: string[];
    mapping?: OIDCMapping;
    overrideUserInfo?: boolean;
    allowIdpInitiated?: boolean;
  };
  samlConfig?: unknown;
  /** Key material for `private_key_jwt` at the token endpoint; stays in code, never stored. */
  privateKey?: PrivateKeyMaterial;
}

/** A private key for `private_key_jwt` client assertions (RFC 7523): a JWK or a PKCS#8 PEM. */
export interface PrivateKeyMaterial {
  privateKeyJwk?: JsonWebKey;
  privateKeyPem?: string;
  kid?: string;
  algorithm?: string;
}

/** What `provisionUser` is called with after an SSO sign-in. */
export interface ProvisionUserInput {
  user: User & Record<string, unknown>;
  userInfo: Record<string, unknown>;
  token?: OAuth2Tokens | undefined;
  provider: SSOProviderRow;
}

/** Options of `sso()`, under the reference's names (SAML options are not served). */
export interface SSOOptions {
  /** Most providers one user may register (a number or a function of the user); 0 disables registration. @default 10 */
  providersLimit?: number | ((user: User & Record<string, unknown>) => Awaitable<number>);
  /** Providers configured in code, checked before the database. */
  defaultSSO?: DefaultSSOProvider[];
  /** Called after an SSO sign-in creates a user (or on every sign-in with `provisionUserOnEveryLogin`). */
  provisionUser?: (input: ProvisionUserInput) => Awaitable<void>;
  provisionUserOnEveryLogin?: boolean;
  /** Default of a provider's `overrideUserInfo`. @default false */
  defaultOverrideUserInfo?: boolean;
  /** No user is created by an SSO sign-in unless the request says `requestSignUp: true`. */
  disableImplicitSignUp?: boolean;
  /** @deprecated Trust the IdP's `email_verified` claim. @default false */
  trustEmailVerified?: boolean;
  /** One callback for every OIDC provider (a path or a URL), served at `/sso/callback`. */
  redirectURI?: string;
  /**
   * Key material for providers using `private_key_jwt` (after `defaultSSO[].privateKey`), called at
   * each token exchange, so keys can live in an HSM, KMS or vault rather than the database.
   */
  resolvePrivateKey?: (params: {
    providerId: string;
    keyId?: string | undefined;
    issuer: string;
  }) => Awaitable<PrivateKeyMaterial>;
  /**
   * Latchkey: store client secrets encrypted (XChaCha20-Poly1305 under the auth secret, core's
   * symmetric format). Rows with a plain secret are still read; the reference cannot use an
   * encrypted secret, so leave it off while both serve the same table. @default false
   */
  encryptClientSecret?: boolean;
  /** Read the account id from `mapping.id` instead of `sub` (providers registered before 1.0 kept it there). @default false */
  legacyMappingId?: boolean;
  /** Renames the table (the reference's `modelName`). */
  modelName?: string;
  /** Renames columns (the reference's `fields`). */
  fields?: Partial<
    Record<
      "issuer" | "oidcConfig" | "samlConfig" | "userId" | "providerId" | "organizationId" | "domain",
      string
    >
  >;
}

/** The options with defaults applied. */
export interface ResolvedSSOOptions extends SSOOptions {
  providersLimit: NonNullable<SSOOptions["providersLimit"]>;
  defaultSSO: DefaultSSOProvider[];
}

/** Applies the reference's defaults. */
export const resolveSSOOptions = (options: SSOOptions = {}): ResolvedSSOOptions => ({
  ...options,
  providersLimit: options.providersLimit ?? 10,
  defaultSSO: options.defaultSSO ?? [],
});
