import type { AuthContext, EndpointContext, User } from "@latchkey/core";
import type { ResolvedOAuthOptions, StoredTokenType } from "./options.js";
import type { OAuthClientRow, OAuthRefreshTokenRow } from "./schema.js";

type Awaitable<T> = T | Promise<T>;

/**
 * The request context an extension hook sees where no endpoint context exists (issuance,
 * introspection, discovery): `ctx.context` is the instance's `AuthContext`, as in an endpoint.
 */
export interface OAuthExtensionContext {
  context: AuthContext;
}

/** An RFC 7800 confirmation (`cnf`): a DPoP key thumbprint (`jkt`), or another proven key. */
export type OAuthConfirmation = { jkt: string } & Record<string, unknown>;

/** What `provider.authenticateClient()` is asked to check. */
export interface OAuthClientAuthenticationRequest {
  /** Scopes the client must be registered for. */
  scopes?: string[];
  /**
   * `false` lets a public client through with `client_id` alone.
   * @default true
   */
  requireCredentials?: boolean;
}

/** The client a request authenticated as, how, and any key the method proved. */
export interface OAuthAuthenticatedClient {
  clientId: string;
  client: OAuthClientRow;
  method?: string;
  confirmation?: OAuthConfirmation;
}

/** What one issuance through `provider.issueTokens()` is for. */
export interface OAuthTokenIssueParams {
  client: OAuthClientRow;
  scopes: string[];
  user?: User;
  referenceId?: string;
  sessionId?: string;
  nonce?: string;
  /** The refresh token being rotated, if this grant rotates one. */
  refreshToken?: OAuthRefreshTokenRow;
  authTime?: Date;
  /** RFC 8707 resources: their policy applies (audience, narrowed scopes, TTLs, signing pins). */
  resources?: string[];
  requestedUserInfoClaims?: string[];
  /** Extra claims of this JWT access token only (provider-owned names are dropped). */
  accessTokenClaims?: Record<string, unknown>;
  /** Extra claims of this ID token only (provider-owned names are dropped). */
  idTokenClaims?: Record<string, unknown>;
  /** Extra members of this token response (the RFC 6749 §5.1 ones stay the provider's). */
  tokenResponse?: Record<string, unknown>;
  /** The key the tokens are bound to (RFC 7800 `cnf`); `token_type` follows from it. */
  confirmation?: OAuthConfirmation;
}

/** A token response (RFC 6749 §5.1). */
export interface OAuthTokenResponse {
  access_token: string;
  expires_in: number;
  expires_at: number;
  token_type: string;
  refresh_token?: string | undefined;
  scope: string;
  id_token?: string | undefined;
  [member: string]: unknown;
}

/**
 * The provider's capabilities bound to one request (`getOAuthProviderApi(ctx, opts, grantType?)`,
 * and `provider` in a grant handler): the same client resolution, client authentication,
 * issuance and token checks the built-in grants use.
 */
export interface OAuthProviderApi {
  /** The client `clientId` (client discovery consulted), or null. */
  getClient(clientId: string): Promise<OAuthClientRow | null>;
  /** Authenticates the calling client as it registered and checks the grant and scopes; throws the OAuth error. */
  authenticateClient(request?: OAuthClientAuthenticationRequest): Promise<OAuthAuthenticatedClient>;
  /** Issues the token set for the bound grant type; authorizing the request is the caller's job. */
  issueTokens(params: OAuthTokenIssueParams): Promise<OAuthTokenResponse>;
  /** The stored lookup key of a token value (`storeTokens`). */
  hashToken(token: string, type: StoredTokenType): Promise<string>;
  /** RFC 7662 view of an access token (`{ active: false }` when unknown, expired or revoked). */
  validateAccessToken(token: string, clientId?: string): Promise<Record<string, unknown> & { active: boolean }>;
  /** The active token's claims, else 401 `invalid_token` with the Bearer challenge. */
  requireActiveAccessToken(token: string, clientId?: string): Promise<Record<string, unknown> & { active: true }>;
}

/** What an extension grant handler receives. */
export interface OAuthExtensionGrantHandlerInput {
  ctx: EndpointContext;
  opts: ResolvedOAuthOptions;
  grantType: string;
  /** Bound to this grant type. */
  provider: OAuthProviderApi;
}

/** Answers one `/oauth2/token` request of its grant type (no-store headers and error shape are the endpoint's). */
export type OAuthExtensionGrantHandler = (input: OAuthExtensionGrantHandlerInput) => Awaitable<OAuthTokenResponse | Record<string, unknown>>;

/** What a client authentication strategy is asked to verify. */
export interface OAuthClientAuthenticationInput {
  ctx: EndpointContext;
  opts: ResolvedOAuthOptions;
  assertion: string;
  assertionType: string;
  /** The `client_id` the request named, if any. */
  clientId?: string;
  /** The endpoint URL the assertion was sent to: bind the assertion to it (RFC 7523 §3). */
  expectedAudience?: string;
}

/** The client an assertion proved, and any key it proved. */
export interface OAuthClientAuthenticationResult {
  clientId: string;
  confirmation?: OAuthConfirmation;
}

/**
 * Assertion-based client authentication (RFC 7521) under its own `token_endpoint_auth_method`.
 * The strategy verifies the assertion (audience, bounded lifetime, single-use `jti`); the
 * provider then loads and checks the client itself.
 */
export interface OAuthClientAuthenticationStrategy {
  /** `client_assertion_type` URIs it consumes; the method name when absent (then an absolute URI). */
  assertionTypes?: string[];
  authenticate(input: OAuthClientAuthenticationInput): Awaitable<OAuthClientAuthenticationResult>;
}

/** Resolves client ids from another source than the `oauthClient` table (a metadata URL, a registry). */
export interface ClientDiscovery {
  /** Stable identifier, stored as the client's `clientDiscoveryId`. */
  readonly id: string;
  /** Whether it handles `clientId` (called on every lookup: keep it cheap). */
  matches(clientId: string): boolean;
  /**
   * The client (created or refreshed as needed), or null: for a client it does not own the next
   * discovery is asked; for one it owns (`clientDiscoveryId`), the lookup fails closed.
   */
  resolve(ctx: OAuthExtensionContext, clientId: string, existing: OAuthClientRow | null): Awaitable<OAuthClientRow | null>;
  /** Members merged into the discovery documents (keys the provider sets are kept). */
  discoveryMetadata?: Record<string, unknown>;
}

/** What a discovery-metadata contributor sees. */
export interface OAuthMetadataExtensionInput {
  ctx: OAuthExtensionContext;
  opts: ResolvedOAuthOptions;
  type: "oauth-authorization-server" | "openid-configuration";
  /** The document before any extension's contribution. */
  document: Record<string, unknown>;
}

/** What an access-token or ID-token claims contributor sees. */
export interface OAuthClaimExtensionInput {
  ctx: OAuthExtensionContext;
  opts: ResolvedOAuthOptions;
  user?: User | null | undefined;
  client: OAuthClientRow;
  scopes: string[];
  /** Undefined when re-derived at introspection: access-token claims must not depend on it. */
  grantType?: string | undefined;
  referenceId?: string | undefined;
  sessionId?: string | undefined;
  resources?: string[] | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** What a userinfo claims contributor sees. */
export interface OAuthUserInfoExtensionInput {
  ctx: OAuthExtensionContext;
  opts: ResolvedOAuthOptions;
  user: User;
  scopes: string[];
  /** The access token's claims. */
  jwt: Record<string, unknown>;
  client?: OAuthClientRow | undefined;
  requestedClaims: string[];
}

/**
 * What a companion plugin adds to the provider, through `oauthProvider({ extensions })` or
 * `extendOAuthProvider(ctx, extension)` (the reference's shape). Grants, auth methods,
 * assertion types and discovery ids must be disjoint across extensions; metadata and claims
 * only add keys the provider (or an earlier extension) did not set.
 */
export interface OAuthProviderExtension {
  /** Token grants by absolute-URI `grant_type`. */
  grants?: Record<string, OAuthExtensionGrantHandler>;
  /** Client authentication strategies by `token_endpoint_auth_method` (built-in names reserved). */
  clientAuthentication?: Record<string, OAuthClientAuthenticationStrategy>;
  /** Discovery members to add. */
  metadata?: (input: OAuthMetadataExtensionInput) => Record<string, unknown>;
  /** Claims to add to access tokens, ID tokens and userinfo answers. */
  claims?: {
    accessToken?: (input: OAuthClaimExtensionInput) => Awaitable<Record<string, unknown>>;
    idToken?: (input: OAuthClaimExtensionInput) => Awaitable<Record<string, unknown>>;
    userInfo?: (input: OAuthUserInfoExtensionInput) => Awaitable<Record<string, unknown>>;
  };
  /** Client id sources consulted, in order, before the `oauthClient` table answers. */
  clientDiscovery?: ClientDiscovery | ClientDiscovery[];
}
