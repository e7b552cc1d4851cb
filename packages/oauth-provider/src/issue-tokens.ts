import type { Adapter, AuthContext, User } from "@latchkey/core";
import { customAccessTokenClaims, withoutReserved } from "./access-token-claims.js";
import { createJwtAccessToken, createOpaqueAccessToken } from "./access-tokens.js";
import { clientMetadata, registeredForRefresh } from "./clients.js";
import { accessTokenExpiry } from "./expirations.js";
import { createIdToken } from "./id-token.js";
import { userInfoURL } from "./issuer.js";
import type { GrantType, ResolvedOAuthOptions } from "./options.js";
import { createRefreshToken, replayRequest, storeRotationReplay } from "./refresh-tokens.js";
import type { OAuthClientRow, OAuthRefreshTokenRow } from "./schema.js";
import { confirmationJkt, type Confirmation } from "./dpop-binding.js";
import type { ResourcePolicy } from "./resource-policy.js";

/** What one grant hands to token issuance. */
export interface TokenGrant {
  grantType: GrantType;
  client: OAuthClientRow;
  scopes: string[];
  user?: User | undefined;
  sessionId?: string | null | undefined;
  referenceId?: string | null | undefined;
  nonce?: string | undefined;
  authTime?: Date | null | undefined;
  authorizationCodeId?: string | null | undefined;
  resources?: string[] | undefined;
  requestedUserInfoClaims?: string[] | undefined;
  /** The refresh token being rotated. */
  refreshToken?: OAuthRefreshTokenRow | undefined;
  /** What the requested resources ask (audience, TTLs, signing pins, claims); see resource-policy.ts. */
  policy?: ResourcePolicy | undefined;
  /** The DPoP key the tokens are bound to (RFC 9449 §5). */
  confirmation?: Confirmation | undefined;
  /** Per-issuance additions of an extension grant (`provider.issueTokens`); provider-owned names are dropped. */
  extra?: {
    accessTokenClaims?: Record<string, unknown> | undefined;
    idTokenClaims?: Record<string, unknown> | undefined;
    tokenResponse?: Record<string, unknown> | undefined;
  } | undefined;
}

const STANDARD_MEMBERS = ["access_token", "expires_in", "expires_at", "token_type", "refresh_token", "scope", "id_token"];

/**
 * Issues the token set of a grant (RFC 6749 §5.1): a refresh token only with a user,
 * `offline_access` and a client registered for the `refresh_token` grant; an ID token only with a
 * user and `openid`; a JWT access token when the grant names an audience, else an opaque one.
 */
export async function issueTokens(ctx: AuthContext, options: ResolvedOAuthOptions, grant: TokenGrant): Promise<Record<string, unknown>> {
  const { client, user, scopes } = grant;
  const iat = Math.floor(Date.now() / 1000);
  const policy = grant.policy;
  const ttl = user ? options.accessTokenExpiresIn : options.m2mAccessTokenExpiresIn;
  const exp = accessTokenExpiry(options, scopes, iat, iat + Math.min(ttl, policy?.accessTokenTtl ?? ttl));
  const refreshTtl = Math.min(options.refreshTokenExpiresIn, policy?.refreshTokenTtl ?? options.refreshTokenExpiresIn);
  const sessionId = grant.sessionId ?? undefined;
  // RFC 8707: the audience is the requested resources, plus userinfo for OpenID grants.
  const audience =
    policy?.audience ??
    (grant.resources?.length ? [...new Set(scopes.includes("openid") ? [...grant.resources, userInfoURL(ctx)] : grant.resources)] : undefined);
  // RFC 7591 §2: a client registered without the `refresh_token` grant gets no refresh token
  // (the reference gives every `authorization_code` client one). A refresh token already held is
  // still rotated, so tokens the reference issued keep working.
  const wantsRefresh =
    user &&
    (grant.refreshToken !== undefined || registeredForRefresh(client)) &&
    (grant.refreshToken?.scopes.includes("offline_access") || scopes.includes("offline_access"));
  const claims = grant.requestedUserInfoClaims ?? grant.refreshToken?.requestedUserInfoClaims ?? [];
  const accessInput = {
    client,
    user,
    scopes,
    iat,
    exp,
    sessionId,
    resources: grant.resources,
    referenceId: grant.referenceId ?? undefined,
    authorizationCodeId: grant.authorizationCodeId ?? undefined,
    requestedUserInfoClaims: claims,
    confirmation: grant.confirmation,
  };
  // RFC 9449 §5: refresh tokens of public clients are bound to the DPoP key; a confidential
  // client's are bound by its authentication (it may change keys). One bound before stays bound.
  const refreshConfirmation =
    grant.confirmation && (client.tokenEndpointAuthMethod === "none" || confirmationJkt(grant.refreshToken?.confirmation))
      ? grant.confirmation
      : undefined;
  const jwtClaims = audience
    ? {
        ...withoutReserved(grant.extra?.accessTokenClaims ?? {}),
        ...withoutReserved(policy?.claims ?? {}),
        ...(await customAccessTokenClaims(ctx, options, {
          client, user, scopes, resources: grant.resources, referenceId: grant.referenceId ?? undefined, grantType: grant.grantType, sessionId,
        })),
      }
    : undefined;
  // One transaction for the stored rows (rotation guard, refresh token, access token): a
  // concurrent replay of the code that revokes "tokens already issued" sees all of them or
  // none, never a refresh row whose access token is still being written. Without a refresh
  // token at most one row is written, atomic by itself: no transaction (on SQLite it holds the
  // one connection and costs two statements per token).
  const stored = <T>(write: (adapter: Adapter) => Promise<T>): Promise<T> =>
    wantsRefresh ? ctx.adapter.transaction(write) : write(ctx.adapter);
  const { refresh, accessToken } = await stored(async (trx) => {
    const refresh = wantsRefresh
      ? await createRefreshToken(
          ctx,
          options,
          {
            client,
            user,
            scopes,
            iat,
            exp: iat + refreshTtl,
            sessionId,
            referenceId: grant.referenceId,
            authorizationCodeId: grant.authorizationCodeId,
            authTime: grant.authTime,
            resources: grant.refreshToken?.resources ?? grant.resources,
            requestedUserInfoClaims: claims,
            previous: grant.refreshToken,
            confirmation: refreshConfirmation,
          },
          trx,
        )
      : undefined;
    // Without the jwt plugin every access token is opaque (`disableJwtPlugin`, as the reference).
    const accessToken = audience && !options.disableJwtPlugin
      ? await createJwtAccessToken(ctx, {
          ...accessInput,
          audience: audience.length === 1 ? audience[0]! : audience,
          claims: jwtClaims,
          signingAlgorithm: policy?.signingAlgorithm,
          signingKeyId: policy?.signingKeyId,
        })
      : await createOpaqueAccessToken(ctx, options, { ...accessInput, refreshId: refresh?.id }, trx);
    return { refresh, accessToken };
  });
  const idToken =
    user && scopes.includes("openid")
      ? await createIdToken(ctx, options, {
          user,
          client,
          scopes,
          nonce: grant.nonce,
          sessionId,
          authTime: grant.authTime ?? undefined,
          accessToken,
          grantType: grant.grantType,
          referenceId: grant.referenceId ?? undefined,
          resources: grant.resources,
          extraClaims: grant.extra?.idTokenClaims,
        })
      : undefined;
  const custom = options.customTokenResponseFields
    ? await options.customTokenResponseFields({ grantType: grant.grantType, user, scopes, metadata: clientMetadata(client) })
    : {};
  const extra = Object.fromEntries(
    Object.entries({ ...grant.extra?.tokenResponse, ...custom }).filter(([name]) => !STANDARD_MEMBERS.includes(name)),
  );
  const response: Record<string, unknown> = {
    ...extra,
    access_token: accessToken,
    expires_in: exp - iat,
    expires_at: exp,
    token_type: grant.confirmation ? "DPoP" : "Bearer",
    ...(refresh ? { refresh_token: refresh.token } : {}),
    scope: scopes.join(" "),
    ...(idToken ? { id_token: idToken } : {}),
  };
  if (grant.refreshToken && refresh) {
    try {
      await storeRotationReplay(ctx, options, grant.refreshToken, replayRequest(scopes, grant.resources), response);
    } catch (error) {
      ctx.logger.error("failed to store refresh token rotation replay", error instanceof Error ? error.name : "unknown");
    }
  }
  return response;
}
