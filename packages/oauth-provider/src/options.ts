import type { EndpointContext, Session, SessionWithUser, User } from "@latchkey/core";
import { checkExpirations } from "./expirations.js";
import { checkResourceOptions, type ResourceOptions } from "./resource-options.js";
import { ResourceStore } from "./resource-store.js";
import type { OAuthProviderExtension } from "./extension-types.js";
import { validateExtensions } from "./extensions.js";

/** The grants the provider serves at `/oauth2/token`. */
export type GrantType = "authorization_code" | "client_credentials" | "refresh_token";

/** Which kind of token a `storeTokens.hash` call is hashing. */
export type StoredTokenType = "access_token" | "refresh_token" | "authorization_code";

/**
 * How client secrets are stored: SHA-256 base64url (`"hashed"`) or a hash function of your own;
 * with `disableJwtPlugin` (ID tokens signed with the secret) encrypted under the auth secret
 * (`"encrypted"`, the reference's XChaCha20-Poly1305 hex) or by functions of your own.
 */
export type StoreClientSecretOption =
  | "hashed"
  | "encrypted"
  | { hash: (secret: string) => Promise<string> | string; verify?: (secret: string, stored: string) => Promise<boolean> | boolean }
  | { encrypt: (secret: string) => Promise<string> | string; decrypt: (stored: string) => Promise<string> | string };

/** How opaque tokens and codes are stored: SHA-256 base64url (`"hashed"`) or a hash function of your own. */
export type StoreTokensOption = "hashed" | { hash: (token: string, type: StoredTokenType) => Promise<string> | string };

/** What `clientPrivileges` is asked about. */
/** `configure-client-credentials-scopes`: giving a client `client_credentials` scopes (admin routes; refused without `clientPrivileges`). */
export type ClientAction = "create" | "read" | "list" | "update" | "delete" | "rotate" | "configure-client-credentials-scopes";

/** One rate-limit rule of the provider's routes; `false` turns it off. */
export type OAuthRateLimitRule = { window?: number; max?: number } | false;

/** Options of `oauthProvider()`, with the reference's names and defaults. */
export interface OAuthOptions extends ResourceOptions {
  /**
   * Grants, client authentication methods, discovery members, claims and client-id sources
   * that companion plugins add (the reference's shape; plugins usually call
   * `extendOAuthProvider(ctx, extension)` in `init`). Checked at start-up: grant and assertion
   * types are absolute URIs, built-in auth method names are reserved, contributions disjoint.
   * @default []
   */
  extensions?: OAuthProviderExtension[];
  /** Page the browser is sent to when the user must sign in (with the signed authorization query). */
  loginPage: string;
  /** Page the browser is sent to when the user must consent (with the signed authorization query). */
  consentPage: string;
  /**
   * Scopes the provider knows; `openid` makes it an OpenID provider.
   * @default ["openid", "profile", "email", "offline_access"]
   */
  scopes?: string[];
  /**
   * Grants served at the token endpoint; `refresh_token` needs `authorization_code`.
   * @default ["authorization_code", "client_credentials", "refresh_token"]
   */
  grantTypes?: GrantType[];
  /** Seconds an authorization code lives. @default 600 */
  codeExpiresIn?: number;
  /** Seconds a user's access token lives. @default 3600 */
  accessTokenExpiresIn?: number;
  /** Seconds a `client_credentials` access token lives. @default 3600 */
  m2mAccessTokenExpiresIn?: number;
  /** Seconds an ID token lives. @default 36000 */
  idTokenExpiresIn?: number;
  /** Seconds a refresh token lives. @default 2592000 (30 days) */
  refreshTokenExpiresIn?: number;
  /**
   * Seconds after a rotation during which the same refresh request gets the same answer again
   * (a client that lost the response); 0 turns replay off.
   * @default 0
   */
  refreshTokenReuseInterval?: number;
  /** Serve `POST /oauth2/register` (RFC 7591). @default false */
  allowDynamicClientRegistration?: boolean;
  /** Let `/oauth2/register` create clients without a session. @default false */
  allowUnauthenticatedClientRegistration?: boolean;
  /** Scopes a dynamically registered client gets. @default `scopes` */
  clientRegistrationDefaultScopes?: string[];
  /** Further scopes a dynamically registered client may ask for. @default [] */
  clientRegistrationAllowedScopes?: string[];
  /** Whether dynamically registered confidential clients must use PKCE. @default true */
  clientRegistrationRequirePKCE?: boolean;
  /**
   * RFC 7591 §3 initial access tokens: a registration without a session may carry
   * `Authorization: Bearer <token>`; return `{ referenceId? }` to accept it (the client is then
   * owned by that reference), `false` to refuse. Compare tokens in constant time.
   */
  validateInitialAccessToken?: (context: {
    initialAccessToken: string;
    headers: Headers;
    clientMetadata: Record<string, unknown>;
  }) => Promise<{ referenceId?: string } | false> | { referenceId?: string } | false;
  /** Whether the signed-in user may manage clients (`action`); false answers 401. @default every user, own clients */
  clientPrivileges?: (context: {
    headers: Headers;
    action: ClientAction;
    user: SessionWithUser["user"];
    session: SessionWithUser["session"];
  }) => boolean | Promise<boolean>;
  /**
   * Run without the jwt plugin: ID tokens are signed HS256 with the client's secret (clients
   * without a secret get none), access tokens are always opaque, discovery has no `jwks_uri`
   * and back-channel logout is off. Secrets must then be stored `"encrypted"` (the default) or
   * with `{ encrypt, decrypt }`. @default false
   */
  disableJwtPlugin?: boolean;
  /** Client secret storage. @default "hashed" ("encrypted" with `disableJwtPlugin`) */
  storeClientSecret?: StoreClientSecretOption;
  /** Opaque token and code storage. @default "hashed" */
  storeTokens?: StoreTokensOption;
  /** Prefixes put before tokens and secrets handed out (never stored). */
  prefix?: { opaqueAccessToken?: string; refreshToken?: string; clientSecret?: string };
  /** Makes client ids. @default 32 random letters */
  generateClientId?: () => string;
  /** Makes client secrets. @default 32 random letters */
  generateClientSecret?: () => string;
  /** Makes opaque access tokens. @default 32 random letters */
  generateOpaqueAccessToken?: () => Promise<string> | string;
  /** Makes refresh tokens. @default 32 random letters */
  generateRefreshToken?: () => Promise<string> | string;
  /** Extra access-token claims (JWT access tokens and introspection); RFC 9068 claims cannot be replaced. */
  customAccessTokenClaims?: (info: {
    user?: User | undefined;
    scopes: string[];
    resources?: string[] | undefined;
    referenceId?: string | undefined;
    metadata: unknown;
  }) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Extra ID token claims; protocol claims cannot be replaced. */
  customIdTokenClaims?: (info: { user: User; scopes: string[]; metadata: unknown }) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Extra userinfo claims (may replace any but `sub`). */
  customUserInfoClaims?: (info: {
    user: User;
    scopes: string[];
    jwt: Record<string, unknown>;
    requestedClaims: string[];
  }) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Extra token-response members; the standard ones cannot be replaced. */
  customTokenResponseFields?: (info: {
    grantType: GrantType;
    user?: User | undefined;
    scopes: string[];
    metadata: unknown;
  }) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Serve `POST /oauth2/public-client-prelogin` to login pages holding a signed request. @default false */
  allowPublicClientPrelogin?: boolean;
  /** What discovery advertises instead of the computed lists. */
  advertisedMetadata?: { scopes_supported?: string[]; claims_supported?: string[] };
  /** Longest lifetime (seconds) a `private_key_jwt` client assertion may have (`exp`, and `iat` age). @default 300 */
  assertionMaxLifetime?: number;
  /**
   * Hosts (`host` or `host:port`) of private or loopback addresses the provider may fetch from
   * for clients (their `jwks_uri`), over http too; every other private host is refused (SSRF).
   * For development and tests, e.g. `["127.0.0.1"]`. @default []
   */
  privateHostAllowList?: string[];
  /**
   * RFC 9449 DPoP: how old a proof's `iat` may be, and the algorithms accepted (and advertised
   * as `dpop_signing_alg_values_supported`).
   * @default { proofMaxAgeSeconds: 300, signingAlgorithms: ["EdDSA", "ES256", "ES512", "PS256", "RS256"] }
   */
  dpop?: { proofMaxAgeSeconds?: number; signingAlgorithms?: string[] };
  /** Per-route rate limits (window seconds, max requests). */
  rateLimit?: Partial<Record<"token" | "authorize" | "introspect" | "revoke" | "register" | "userinfo", OAuthRateLimitRule>>;
  /**
   * Secret (≥ 32 characters) keying pairwise subjects (OIDC Core §8.1): with it, clients may
   * register `subject_type: "pairwise"` and see a per-sector `sub`.
   */
  pairwiseSecret?: string;
  /** Account selection (`prompt=select_account`); the page calls `/oauth2/continue` with `selected: true`. */
  selectAccount?: { page?: string; shouldRedirect: (info: InteractionInfo) => boolean | Promise<boolean> };
  /** Sign-up steps (`prompt=create`); the page calls `/oauth2/continue` with `created: true`. */
  signup?: { page?: string; shouldRedirect?: (info: InteractionInfo) => boolean | string | Promise<boolean | string> };
  /** A step after sign-in and before consent (e.g. choosing an organization); the page calls `/oauth2/continue` with `postLogin: true`. */
  postLogin?: {
    page: string;
    shouldRedirect: (info: InteractionInfo) => boolean | Promise<boolean>;
    /** The `referenceId` stored with the consent and the tokens. */
    consentReferenceId?: (info: Omit<InteractionInfo, "headers">) => string | undefined | Promise<string | undefined>;
  };
  /**
   * Shorter access-token lifetimes for some scopes; the earliest of the granted ones wins. A
   * duration (`"5m"`) counts from issue, a number is an absolute `exp`, as in the reference.
   * @example { "write:payments": "5m" }
   */
  scopeExpirations?: Record<string, number | string | Date>;
  /**
   * `client_secret_expires_at` advertised for dynamically registered confidential clients (a
   * duration from registration, a number as an absolute time, or a `Date`). Like the reference
   * it is only advertised: nothing stores it. @default 0 (does not expire)
   */
  clientRegistrationClientSecretExpiration?: number | string | Date;
  /**
   * The form of refresh tokens handed out (e.g. JWE): `encrypt(token, sessionId)` wraps the stored
   * token, `decrypt(presented)` must give `{ token }` back. `prefix.refreshToken` goes outside it.
   */
  formatRefreshToken?: {
    encrypt: (token: string, sessionId?: string) => Promise<string> | string;
    decrypt: (token: string) => Promise<{ token: string; sessionId?: string }> | { token: string; sessionId?: string };
  };
  /**
   * The owner of the clients a session manages instead of its user (an organisation, a team):
   * clients created then carry `reference_id` and no `user_id`, and the session whose
   * reference matches manages them.
   */
  clientReference?: (context: { user?: User & Record<string, unknown>; session?: Session & Record<string, unknown> }) =>
    Promise<string | undefined> | string | undefined;
  /**
   * Client ids read from the database once and then served from memory; the management routes
   * refuse to change them (403 `invalid_client`).
   */
  cachedTrustedClients?: Set<string>;
  /**
   * Resolves a `request_uri` at `/oauth2/authorize` (pushed authorization requests, RFC 9126) to
   * the parameters pushed; null when it is unknown or expired (`invalid_request_uri`).
   */
  requestUriResolver?: (input: { requestUri: string; clientId: string; ctx: EndpointContext }) => Promise<Record<string, string> | null>;
  /** Back-channel logout delivery (a Latchkey option; see backchannel-logout.ts). */
  backchannelLogout?: BackchannelLogoutOptions;
}

/** What the interaction callbacks receive. */
export interface InteractionInfo {
  headers: Headers;
  user: User & Record<string, unknown>;
  session: Session & Record<string, unknown>;
  scopes: string[];
}

/** How logout tokens are delivered to clients' `backchannel_logout_uri` (OIDC Back-Channel Logout 1.0). */
export interface BackchannelLogoutOptions {
  /**
   * Hosts (names or IP literals, as written in the URI) a `backchannel_logout_uri` may use although
   * they are loopback, private or reserved, over http or https; for development and tests. @default []
   */
  allowedHosts?: string[];
  /** Milliseconds one delivery attempt may take. @default 5000 */
  timeout?: number;
  /** Attempts per logout token (network failure, timeout or a 5xx answer is retried). @default 3 */
  attempts?: number;
}

/** Options after defaults, resolved once by `oauthProvider()`. */
export interface ResolvedOAuthOptions
  extends Omit<OAuthOptions, "scopes" | "grantTypes" | "storeClientSecret" | "storeTokens" | "extensions"> {
  scopes: string[];
  /** The `extensions` option, then those `extendOAuthProvider()` added (one list per plugin object, as the reference). */
  extensions: OAuthProviderExtension[];
  grantTypes: GrantType[];
  /** Claims discovery advertises (protocol claims and the standard claims of enabled scopes). */
  claims: string[];
  codeExpiresIn: number;
  accessTokenExpiresIn: number;
  m2mAccessTokenExpiresIn: number;
  idTokenExpiresIn: number;
  refreshTokenExpiresIn: number;
  refreshTokenReuseInterval: number;
  storeClientSecret: StoreClientSecretOption;
  storeTokens: StoreTokensOption;
  /** The `oauthResource` rows of this instance (seeding, `cachedResources`). */
  resourceStore: ResourceStore;
}

const DEFAULT_SCOPES = ["openid", "profile", "email", "offline_access"];
const DEFAULT_GRANTS: GrantType[] = ["authorization_code", "client_credentials", "refresh_token"];
const PROTOCOL_CLAIMS = ["sub", "iss", "aud", "exp", "iat", "sid", "scope", "azp"];
/** OIDC Core §5.4: the standard claims each scope asks for. */
export const SCOPE_CLAIMS: Record<string, string[]> = {
  profile: ["name", "picture", "given_name", "family_name"],
  email: ["email", "email_verified"],
};

/**
 * The reference's pairing of secret storage and signing: ID tokens signed with the client's
 * secret need it readable back (encrypted), and a readable secret is refused otherwise.
 */
function checkSecretStorage(options: OAuthOptions): StoreClientSecretOption {
  const method = options.storeClientSecret ?? (options.disableJwtPlugin ? "encrypted" : "hashed");
  const readable = method === "encrypted" || (typeof method === "object" && ("encrypt" in method || "decrypt" in method));
  if (options.disableJwtPlugin && !readable) {
    throw new TypeError("oauthProvider: unable to store hashed secrets because id tokens will be signed with secret");
  }
  if (!options.disableJwtPlugin && readable) {
    throw new TypeError("oauthProvider: encryption method not recommended, please use 'hashed' or the 'hash' function");
  }
  if (typeof method === "object" && "encrypt" in method && typeof method.decrypt !== "function") {
    throw new TypeError("oauthProvider: storeClientSecret.encrypt needs storeClientSecret.decrypt");
  }
  return method;
}

const positive = (name: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new TypeError(`oauthProvider: ${name} must be a non-negative number`);
  return value;
};

/** Applies the defaults; misconfiguration is a `TypeError` here, never found by a request. */
export function resolveOAuthOptions(options: OAuthOptions): ResolvedOAuthOptions {
  if (!options || typeof options.loginPage !== "string" || typeof options.consentPage !== "string") {
    throw new TypeError("oauthProvider: loginPage and consentPage are required");
  }
  validateExtensions(options.extensions ?? []);
  const storeClientSecret = checkSecretStorage(options);
  checkExpirations(options);
  if (options.formatRefreshToken && (typeof options.formatRefreshToken.encrypt !== "function" || typeof options.formatRefreshToken.decrypt !== "function")) {
    throw new TypeError("oauthProvider: formatRefreshToken needs encrypt and decrypt");
  }
  const dpopAlgorithms = options.dpop?.signingAlgorithms;
  if (dpopAlgorithms && (!dpopAlgorithms.length || dpopAlgorithms.some((alg) => alg === "none" || alg.startsWith("HS")))) {
    throw new TypeError("oauthProvider: dpop.signingAlgorithms must list asymmetric JWS algorithms");
  }
  checkPairwiseSecret(options.pairwiseSecret);
  checkResourceOptions(options);
  const scopes = [...new Set((options.scopes ?? DEFAULT_SCOPES).filter((scope) => scope.length > 0))];
  const known = new Set(scopes);
  const allowed = [...new Set([...(options.clientRegistrationAllowedScopes ?? []), ...(options.clientRegistrationDefaultScopes ?? [])])];
  for (const scope of allowed) {
    if (!known.has(scope)) throw new TypeError(`oauthProvider: clientRegistrationAllowedScope ${scope} not found in scopes`);
  }
  for (const scope of options.advertisedMetadata?.scopes_supported ?? []) {
    if (!known.has(scope)) throw new TypeError(`oauthProvider: advertisedMetadata.scopes_supported ${scope} not found in scopes`);
  }
  const grantTypes = options.grantTypes ?? DEFAULT_GRANTS;
  if (grantTypes.includes("refresh_token") && !grantTypes.includes("authorization_code")) {
    throw new TypeError("oauthProvider: refresh_token grant requires authorization_code grant");
  }
  const claims = [...PROTOCOL_CLAIMS, ...Object.entries(SCOPE_CLAIMS).flatMap(([scope, names]) => (known.has(scope) ? names : []))];
  return {
    ...options,
    scopes,
    grantTypes,
    claims,
    ...(options.clientRegistrationAllowedScopes || options.clientRegistrationDefaultScopes
      ? { clientRegistrationAllowedScopes: allowed }
      : {}),
    codeExpiresIn: positive("codeExpiresIn", options.codeExpiresIn, 600),
    accessTokenExpiresIn: positive("accessTokenExpiresIn", options.accessTokenExpiresIn, 3600),
    m2mAccessTokenExpiresIn: positive("m2mAccessTokenExpiresIn", options.m2mAccessTokenExpiresIn, 3600),
    idTokenExpiresIn: positive("idTokenExpiresIn", options.idTokenExpiresIn, 36000),
    refreshTokenExpiresIn: positive("refreshTokenExpiresIn", options.refreshTokenExpiresIn, 2592000),
    refreshTokenReuseInterval: positive("refreshTokenReuseInterval", options.refreshTokenReuseInterval, 0),
    assertionMaxLifetime: positive("assertionMaxLifetime", options.assertionMaxLifetime, 300),
    storeClientSecret,
    storeTokens: options.storeTokens ?? "hashed",
    resourceStore: new ResourceStore(options),
    extensions: [...(options.extensions ?? [])],
  };
}

/** `pairwiseSecret` keys every pairwise subject: at least 32 characters, as the reference requires. */
function checkPairwiseSecret(secret: unknown): void {
  if (secret === undefined) return;
  if (typeof secret !== "string" || secret.length < 32) throw new TypeError("oauthProvider: pairwiseSecret must be at least 32 characters long");
}
