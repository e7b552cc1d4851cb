import type { JWTVerifyGetKey } from "jose";
import type { BoundedFetchOptions } from "../net/bounded-fetch.js";
import type { TokenEndpointAuth } from "./client-auth.js";
import { fetchDiscovery, lazyDiscovery, type OIDCDiscoveryDocument } from "./discovery.js";
import { oauthFlow } from "./flow.js";
import { ASYMMETRIC_ALGORITHMS, verifyIdToken } from "./id-token.js";
import { createAuthorizationURL } from "./authorization-url.js";
import { refreshAccessToken, validateAuthorizationCode } from "./token-request.js";
import { remoteJWKS } from "./remote-jwks.js";
import { profileToUser, readUserInfo } from "./oidc-profile.js";
import type { OAuth2Tokens, OAuthMappedUser, OAuthProvider, ProviderOptions } from "./types.js";

/** Configuration of {@link oidcProvider}: an OpenID Connect provider found by discovery. */
export interface OIDCProviderConfig {
  /** Provider id: the `provider` of `/sign-in/social` and the account's `providerId`. */
  id: string;
  /** @default id */
  name?: string;
  /** The issuer identifier; the document is read from `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret?: string;
  /** @default ["openid", "profile", "email"] (`openid` is always sent) */
  scopes?: string[];
  /** @default client_secret_basic when the provider supports it (its default), else client_secret_post; none without a secret */
  tokenEndpointAuth?: TokenEndpointAuth;
  /** Send PKCE (S256). @default true */
  pkce?: boolean;
  /** Bind the ID token to a nonce kept in the state. @default true */
  idTokenNonce?: boolean;
  /** Accepted ID-token algorithms. @default the asymmetric ones the provider advertises, else RS256 */
  idTokenSigningAlgorithms?: string[];
  /** Plain-http endpoints. @default true only for a loopback issuer (local IdPs in development and tests) */
  allowInsecureRequests?: boolean;
  redirectURI?: string;
  prompt?: ProviderOptions["prompt"];
  responseMode?: ProviderOptions["responseMode"];
  accessType?: string;
  /** Extra authorization parameters (reserved ones are ignored). */
  authorizationParams?: Record<string, string>;
  /** Extra token-request parameters (reserved ones are ignored). */
  tokenParams?: Record<string, string>;
  discoveryHeaders?: Record<string, string>;
  /**
   * Latchkey addition: milliseconds each request to the provider (discovery, token, JWKS,
   * UserInfo) may take before it is given up. @default 10000
   */
  requestTimeout?: number;
  /** Fallback lifetime in seconds when the token response has no `expires_in`. */
  accessTokenExpiresIn?: number;
  /** Maps the profile (verified ID-token claims and UserInfo) to user fields, additional ones included. */
  mapProfileToUser?: (profile: Record<string, unknown>) => OAuthMappedUser | Promise<OAuthMappedUser>;
  /** The account id. @default the `sub` claim */
  accountSubject?: (context: { tokens: OAuth2Tokens; profile: Record<string, unknown> }) => string | number;
  disableImplicitSignUp?: boolean;
  disableSignUp?: boolean;
  disableIdTokenSignIn?: boolean;
  overrideUserInfoOnSignIn?: boolean;
  requireEmailVerification?: boolean;
  allowIdpInitiated?: boolean;
}

const isLoopback = (url: URL) => ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);

/** Secret-based methods in the order tried when the config names none (RFC 8414 §2: Basic is the default). */
function defaultClientAuth(config: OIDCProviderConfig, doc: OIDCDiscoveryDocument): TokenEndpointAuth {
  if (config.tokenEndpointAuth) return config.tokenEndpointAuth;
  if (!config.clientSecret) return { method: "none" };
  const supported = doc.token_endpoint_auth_methods_supported;
  if (!supported || supported.includes("client_secret_basic")) return { method: "client_secret_basic" };
  return supported.includes("client_secret_post")
    ? { method: "client_secret_post" }
    : { method: "client_secret_basic" };
}

/**
 * A generic OpenID Connect provider built from discovery: authorization code with PKCE and a
 * nonce, token requests with the client authentication the provider supports, ID tokens
 * verified against its JWKS, refresh, and UserInfo. Discovery runs on first use, so
 * `createAuth` stays synchronous and an IdP outage at start-up is retried.
 *
 * @example
 * socialProviders: { acme: oidcProvider({ id: "acme", issuer: "https://id.acme.test", clientId, clientSecret }) }
 */
export function oidcProvider(config: OIDCProviderConfig): OAuthProvider {
  let issuerURL: URL;
  try {
    issuerURL = new URL(config.issuer);
  } catch {
    throw new TypeError(`oidcProvider "${config.id}": issuer must be a URL.`);
  }
  const allowHttp = config.allowInsecureRequests ?? isLoopback(issuerURL);
  if (issuerURL.protocol !== "https:" && !(allowHttp && issuerURL.protocol === "http:")) {
    throw new TypeError(`oidcProvider "${config.id}": issuer must use https.`);
  }
  if (!config.clientId) throw new TypeError(`oidcProvider "${config.id}": clientId is required.`);
  const fetchOptions: BoundedFetchOptions = { timeout: config.requestTimeout };
  const discovery = lazyDiscovery(() =>
    fetchDiscovery(config.issuer, { headers: config.discoveryHeaders, allowHttp, fetchOptions }),
  );
  // The key set is fetched (and cached, and re-fetched on an unknown `kid`) by jose.
  const jwks: JWTVerifyGetKey = remoteJWKS(async () => (await discovery()).jwks_uri, fetchOptions);
  const algorithms = (doc: OIDCDiscoveryDocument): string[] => {
    if (config.idTokenSigningAlgorithms) return config.idTokenSigningAlgorithms;
    const advertised = doc.id_token_signing_alg_values_supported?.filter((a) =>
      ASYMMETRIC_ALGORITHMS.includes(a),
    );
    // OIDC Discovery §3: RS256 must be supported and is the default ID-token algorithm.
    return advertised?.length ? advertised : ["RS256"];
  };
  const verify = async (token: string, nonce: string | undefined) => {
    const doc = await discovery();
    return verifyIdToken(token, {
      jwks,
      issuer: config.issuer,
      audience: config.clientId,
      algorithms: algorithms(doc),
      nonce,
    });
  };
  const credentials = async () => {
    const doc = await discovery();
    return {
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      tokenEndpointAuth: defaultClientAuth(config, doc),
      doc,
    };
  };
  const withDefaultExpiry = (tokens: OAuth2Tokens): OAuth2Tokens => {
    if (!tokens.accessTokenExpiresAt && config.accessTokenExpiresIn) {
      tokens.accessTokenExpiresAt = new Date(Date.now() + config.accessTokenExpiresIn * 1000);
    }
    return tokens;
  };
  const nonceBinding = config.idTokenNonce !== false;

  const provider: OAuthProvider = {
    id: config.id,
    name: config.name ?? config.id,
    issuer: config.issuer,
    requiresIdTokenNonce: nonceBinding,
    flow: oauthFlow,
    requiresIssuerParameter: async () =>
      (await discovery()).authorization_response_iss_parameter_supported === true,
    idToken: { verify: async (token, nonce) => (await verify(token, nonce)) !== null },
    disableImplicitSignUp: config.disableImplicitSignUp,
    disableSignUp: config.disableSignUp,
    allowIdpInitiated: config.allowIdpInitiated,
    options: {
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      redirectURI: config.redirectURI,
      disableSignUp: config.disableSignUp,
      disableImplicitSignUp: config.disableImplicitSignUp,
      disableIdTokenSignIn: config.disableIdTokenSignIn,
      overrideUserInfoOnSignIn: config.overrideUserInfoOnSignIn,
      requireEmailVerification: config.requireEmailVerification,
    },
    accountSubject: ({ tokens, profile }) =>
      config.accountSubject ? config.accountSubject({ tokens, profile }) : String(profile.sub ?? ""),

    async createAuthorizationURL(data) {
      const doc = await discovery();
      // OIDC Core §3.1.2.1: `openid` must be present for an OpenID request.
      const scopes = [
        ...new Set(["openid", ...(data.scopes ?? []), ...(config.scopes ?? ["profile", "email"])]),
      ];
      return createAuthorizationURL({
        authorizationEndpoint: doc.authorization_endpoint,
        clientId: config.clientId,
        redirectURI: config.redirectURI ?? data.redirectURI,
        state: data.state,
        codeVerifier: config.pkce === false ? undefined : data.codeVerifier,
        scopes,
        nonce: data.idTokenNonce,
        prompt: config.prompt,
        responseMode: config.responseMode,
        accessType: config.accessType,
        display: data.display,
        loginHint: data.loginHint,
        additionalParams: { ...config.authorizationParams, ...data.additionalParams },
      });
    },

    async validateAuthorizationCode(data) {
      const { doc, ...client } = await credentials();
      const tokens = await validateAuthorizationCode({
        ...client,
        tokenEndpoint: doc.token_endpoint,
        code: data.code,
        redirectURI: config.redirectURI ?? data.redirectURI,
        codeVerifier: config.pkce === false ? undefined : data.codeVerifier,
        deviceId: data.deviceId,
        additionalParams: config.tokenParams,
        fetchOptions,
      });
      return withDefaultExpiry(tokens);
    },

    async refreshAccessToken(refreshToken) {
      const { doc, ...client } = await credentials();
      return withDefaultExpiry(
        await refreshAccessToken({ ...client, tokenEndpoint: doc.token_endpoint, refreshToken, fetchOptions }),
      );
    },

    async getUserInfo(tokens) {
      const doc = await discovery();
      let claims: Record<string, unknown> | null = null;
      if (tokens.idToken) {
        // The ID token is trusted only once verified, nonce included when the flow bound one.
        claims = (await verify(tokens.idToken, tokens.expectedIdTokenNonce)) as Record<
          string,
          unknown
        > | null;
        // Outside a sign-in (e.g. `/account-info` with a stored, since expired ID token) the
        // profile can still come from UserInfo, which the IdP answers only for a valid
        // access token; inside one, a token that fails verification fails the sign-in.
        if (!claims && (tokens.expectedIdTokenNonce || !tokens.accessToken)) return null;
      } else if (tokens.expectedIdTokenNonce) {
        // OIDC Core §3.1.3.3: the token response of an OpenID request contains an ID token;
        // without it nothing ties the login to the nonce this browser's state holds.
        return null;
      }
      const profile = await readUserInfo(doc, claims, tokens.accessToken, fetchOptions);
      if (!profile) return null;
      const user = await profileToUser(profile, config.mapProfileToUser);
      return { user, data: profile };
    },
  };
  return provider;
}
