import {
  ASYMMETRIC_ALGORITHMS,
  createAuthorizationURL,
  oauthFlow,
  refreshAccessToken,
  remoteJWKS,
  validateAuthorizationCode,
  verifyIdToken,
  type OAuth2Tokens,
  type OAuthProvider,
} from "@latchkey/core";
import type { JWTVerifyGetKey } from "jose";
import { clientAuthOf } from "./config-checks.js";
import type { DiscoveredMetadata } from "./discovery.js";
import { endSessionURL } from "./end-session.js";
import { GENERIC_OAUTH_ERROR_CODES } from "./error-codes.js";
import type { GenericOAuthConfig, GenericOAuthUserInfo } from "./options.js";
import { profileToUser, readDefaultProfile } from "./profile.js";

/** A provider's endpoints and ID-token rules: the config's own values over discovered ones. */
export interface ResolvedEndpoints {
  authorizationUrl?: string | undefined;
  tokenUrl?: string | undefined;
  userInfoUrl?: string | undefined;
  endSessionEndpoint?: string | undefined;
  /** Expected `iss` of authorization responses (RFC 9207). */
  issuer?: string | undefined;
  /** Discovery advertised ID-token signing algorithms: an OpenID provider (`openid`, `sub`). */
  isOidc: boolean;
  /** The authorization response must carry `iss`. */
  requireIssuer: boolean;
  /** How ID tokens are verified; only discovery (issuer + JWKS) supplies one. */
  idToken?: { jwks: JWTVerifyGetKey; issuer: string; audience: string; algorithms?: string[] | undefined };
}

/** Merges a config with its discovery document (explicit values win, as in the reference). */
export function resolveEndpoints(c: GenericOAuthConfig, found?: DiscoveredMetadata): ResolvedEndpoints {
  const isOidc = (found?.signingAlgorithms.length ?? 0) > 0;
  // Never HS* or `none` (RFC 8725 §3.1), whatever the document advertises.
  const algorithms = found?.signingAlgorithms.filter((a) => ASYMMETRIC_ALGORITHMS.includes(a));
  return {
    authorizationUrl: c.authorizationUrl ?? found?.authorizationUrl,
    tokenUrl: c.tokenUrl ?? found?.tokenUrl,
    userInfoUrl: c.userInfoUrl ?? found?.userInfoUrl,
    endSessionEndpoint: c.endSessionEndpoint ?? found?.endSessionEndpoint,
    issuer: c.issuer ?? found?.issuer,
    isOidc,
    requireIssuer: c.requireIssuerValidation === true || found?.issParameterSupported === true,
    idToken:
      found?.jwksUrl && found.issuer
        ? {
            jwks: remoteJWKS(found.jwksUrl),
            issuer: found.issuer,
            audience: c.clientId,
            algorithms: algorithms?.length ? algorithms : undefined,
          }
        : undefined,
  };
}

/** What a provider needs from the auth instance. */
export interface ProviderHost {
  baseURL(): string;
  logError(message: string): void;
}

const invalidConfig = (code: "INVALID_OAUTH_CONFIGURATION" | "TOKEN_URL_NOT_FOUND") =>
  GENERIC_OAUTH_ERROR_CODES.fail(code, "BAD_REQUEST");

/**
 * The core OAuth provider of one config: the object `/sign-in/social`, `/callback/:id`,
 * `/link-social`, the token routes and `/sign-out` use. Built on core's request primitives;
 * what is generic here is only where the endpoints, subject and profile come from.
 */
export function genericProvider(
  c: GenericOAuthConfig,
  ep: ResolvedEndpoints,
  host: ProviderHost,
): OAuthProvider {
  const pkce = c.pkce !== false;
  const client = { clientId: c.clientId, clientSecret: c.clientSecret, tokenEndpointAuth: clientAuthOf(c) };
  const withExpiry = (tokens: OAuth2Tokens): OAuth2Tokens => {
    if (!tokens.accessTokenExpiresAt && c.accessTokenExpiresIn)
      tokens.accessTokenExpiresAt = new Date(Date.now() + c.accessTokenExpiresIn * 1000);
    return tokens;
  };
  const verify = async (token: string, nonce: string | undefined) =>
    ep.idToken
      ? ((await verifyIdToken(token, { ...ep.idToken, nonce })) as Record<string, unknown> | null)
      : null;

  return {
    id: c.providerId,
    name: c.name ?? c.providerId,
    issuer: ep.issuer,
    requiresIssuerParameter: () => ep.requireIssuer,
    idToken: ep.idToken,
    // OIDC Core §3.1.2.1: a nonce binds the ID token to this browser's request (replay).
    requiresIdTokenNonce: ep.idToken !== undefined && c.disableIdTokenNonceBinding !== true,
    allowIdpInitiated: c.allowIdpInitiated,
    // Core's routes run the sign-in, link and token operations through it.
    flow: oauthFlow,
    disableImplicitSignUp: c.disableImplicitSignUp,
    disableSignUp: c.disableSignUp,
    options: {
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      redirectURI: c.redirectURI,
      disableImplicitSignUp: c.disableImplicitSignUp,
      disableSignUp: c.disableSignUp,
      overrideUserInfoOnSignIn: c.overrideUserInfo,
      requireEmailVerification: c.requireEmailVerification,
    },

    accountSubject: ({ tokens, profile }) => {
      const p = profile as GenericOAuthUserInfo;
      if (c.accountSubject) return c.accountSubject({ tokens, profile: p });
      // Never one field or the other at runtime: that could move an account to another user.
      return (ep.isOidc ? p.sub : p.id) ?? "";
    },

    createAuthorizationURL(data) {
      if (!ep.authorizationUrl) throw invalidConfig("INVALID_OAUTH_CONFIGURATION");
      const scopes = [...new Set([...(data.scopes ?? []), ...(c.scopes ?? [])])];
      if (ep.isOidc && !scopes.includes("openid")) scopes.unshift("openid");
      return createAuthorizationURL({
        authorizationEndpoint: ep.authorizationUrl,
        clientId: c.clientId,
        redirectURI: c.redirectURI ?? data.redirectURI,
        state: data.state,
        codeVerifier: pkce ? data.codeVerifier : undefined,
        scopes,
        responseType: c.responseType,
        responseMode: c.responseMode,
        prompt: c.prompt,
        accessType: c.accessType,
        display: data.display,
        loginHint: data.loginHint,
        nonce: data.idTokenNonce,
        additionalParams: { ...c.authorizationUrlParams, ...data.additionalParams },
      });
    },

    async validateAuthorizationCode(data) {
      const input = {
        code: data.code,
        // RFC 6749 §4.1.3: the redirect URI of the authorization request, repeated.
        redirectURI: c.redirectURI ?? data.redirectURI,
        // RFC 7636 §4.5.
        codeVerifier: pkce ? data.codeVerifier : undefined,
        deviceId: data.deviceId,
      };
      if (c.getToken) return withExpiry(await c.getToken(input));
      if (!ep.tokenUrl) throw invalidConfig("TOKEN_URL_NOT_FOUND");
      const tokens = await validateAuthorizationCode({
        ...client,
        ...input,
        tokenEndpoint: ep.tokenUrl,
        additionalParams: c.tokenUrlParams,
        headers: c.authorizationHeaders,
      });
      return withExpiry(tokens);
    },

    async getUserInfo({ expectedIdTokenNonce, user: _appleUser, ...tokens }) {
      let verified: Record<string, unknown> | null = null;
      if (tokens.idToken && ep.idToken) {
        // OIDC Core §3.1.3.7: signature, iss, aud, exp and (when the flow bound one) nonce.
        verified = await verify(tokens.idToken, expectedIdTokenNonce);
        if (!verified) {
          host.logError(`Provider "${c.providerId}": the ID token failed verification (JWKS or nonce).`);
          return null;
        }
      } else if (expectedIdTokenNonce && ep.isOidc) {
        // OIDC Core §3.1.3.3: an OpenID token response carries an ID token; without it
        // nothing ties this login to the nonce the browser's state holds.
        return null;
      }
      const raw = c.getUserInfo
        ? await c.getUserInfo(tokens)
        : await readDefaultProfile(tokens, verified, ep.userInfoUrl);
      if (!raw) return null;
      return { user: await profileToUser(raw, c.mapProfileToUser), data: raw };
    },

    async refreshAccessToken(refreshToken, refreshCtx) {
      if (!ep.tokenUrl) throw invalidConfig("TOKEN_URL_NOT_FOUND");
      const extraParams =
        typeof c.refreshTokenParams === "function"
          ? await c.refreshTokenParams(refreshCtx)
          : c.refreshTokenParams;
      const tokens = await refreshAccessToken({
        ...client,
        tokenEndpoint: ep.tokenUrl,
        refreshToken,
        extraParams,
      });
      return withExpiry(tokens);
    },

    createEndSessionURL: (data) => endSessionURL(c, ep.endSessionEndpoint, host.baseURL(), data),
  };
}
