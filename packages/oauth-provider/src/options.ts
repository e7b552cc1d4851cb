import type { Session, SessionWithUser, User } from "@latchkey/core";
import { checkResourceOptions, type ResourceOptions } from "./resource-options.js";
import { ResourceStore } from "./resource-store.js";

/** The grants the provider serves at `/oauth2/token`. */
export type GrantType = "authorization_code" | "client_credentials" | "refresh_token";

/** Which kind of token a `storeTokens.hash` call is hashing. */
export type StoredTokenType = "access_token" | "refresh_token" | "authorization_code";

/** How client secrets are stored: SHA-256 base64url (`"hashed"`) or a hash function of your own. */
export type StoreClientSecretOption =
  | "hashed"
  | { hash: (secret: string) => Promise<string> | string; verify?: (secret: string, stored: string) => Promise<boolean> | boolean };

/** How opaque tokens and codes are stored: SHA-256 base64url (`"hashed"`) or a hash function of your own. */
export type StoreTokensOption = "hashed" | { hash: (token: string, type: StoredTokenType) => Promise<string> | string };

/** What `clientPrivileges` is asked about. */
export type ClientAction = "create" | "read" | "list" | "update" | "delete" | "rotate";

/** One rate-limit rule of the provider's routes; `false` turns it off. */
export type OAuthRateLimitRule = { window?: number; max?: number } | false;

/** Options of `oauthProvider()`, with the reference's names and defaults. */
export interface OAuthOptions extends ResourceOptions {
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
  /** Client secret storage. @default "hashed" */
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
  extends Omit<OAuthOptions, "scopes" | "grantTypes" | "storeClientSecret" | "storeTokens"> {
  scopes: string[];
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

// Reference options this release does not implement. A config ported from the reference that
// sets one must fail at start-up, not run with tokens, subjects or clients other than it asked for.
const UNSUPPORTED = [
  "disableJwtPlugin",
  "extensions", "clientReference", "cachedTrustedClients", "requestUriResolver",
  "formatRefreshToken", "scopeExpirations",
"clientRegistrationClientSecretExpiration",
] as const;

/** Refuses reference options that are not served yet (README, "Not yet"). */
function refuseUnsupported(options: OAuthOptions): void {
  const given = options as unknown as Record<string, unknown>;
  for (const name of UNSUPPORTED) {
    if (given[name] !== undefined) throw new TypeError(`oauthProvider: the option ${name} is not supported yet`);
  }
  const secret = given.storeClientSecret;
  if (secret === "encrypted" || (secret && typeof secret === "object" && ("encrypt" in secret || "decrypt" in secret))) {
    throw new TypeError("oauthProvider: encrypted client secrets are not supported yet; use \"hashed\" or { hash }");
  }
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
  refuseUnsupported(options);
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
    storeClientSecret: options.storeClientSecret ?? "hashed",
    storeTokens: options.storeTokens ?? "hashed",
    resourceStore: new ResourceStore(options),
  };
}

/** `pairwiseSecret` keys every pairwise subject: at least 32 characters, as the reference requires. */
function checkPairwiseSecret(secret: unknown): void {
  if (secret === undefined) return;
  if (typeof secret !== "string" || secret.length < 32) throw new TypeError("oauthProvider: pairwiseSecret must be at least 32 characters long");
}
