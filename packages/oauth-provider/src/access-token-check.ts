import { getService, type AuthContext } from "@latchkey/core";
import { JWT_SIGNER } from "@latchkey/jwt";
import { decodeRefreshToken } from "./refresh-token-format.js";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { customAccessTokenClaims, hasAccessTokenClaimExtension, withoutReserved } from "./access-token-claims.js";
import { audiencesKnown, mayIntrospect, resourceClaims } from "./resource-policy.js";
import { findClient } from "./clients.js";
import { jwtDisabled, tokenIssuer, userInfoURL } from "./issuer.js";
import type { ResolvedOAuthOptions } from "./options.js";
import type { OAuthAccessTokenRow, OAuthClientRow, OAuthRefreshTokenRow } from "./schema.js";
import { storedToken, stripPrefix } from "./token-hash.js";
import { confirmationJkt } from "./dpop-binding.js";

/** An RFC 7662 §2.2 answer plus the userinfo claims an opaque token remembers. */
export interface TokenCheck {
  payload: Record<string, unknown> & { active: boolean };
  requestedUserInfoClaims: string[];
}

const INACTIVE: TokenCheck = { payload: { active: false }, requestedUserInfoClaims: [] };

/** Whether the session a token is bound to still lives (a token of an ended session is inactive, spec States). */
async function sessionAlive(ctx: AuthContext, sessionId: unknown): Promise<boolean> {
  if (typeof sessionId !== "string" || !sessionId) return true;
  const session = await ctx.adapter.findOne<{ expiresAt: Date }>({ model: "session", where: [{ field: "id", value: sessionId }] });
  return Boolean(session && new Date(session.expiresAt).getTime() >= Date.now());
}

/** The `aud` values a token claims (unverified; used to ask the verifier for exactly those). */
function claimedAudiences(token: string): string[] {
  try {
    return [decodeJwt(token).aud].flat().filter((aud): aud is string => typeof aud === "string");
  } catch {
    return [];
  }
}

/** `null` when `token` is no JWT at all (so it may be an opaque one); else its check. */
async function checkJwt(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  token: string,
  callerId: string | undefined,
  caller?: OAuthClientRow,
): Promise<TokenCheck | null> {
  // Without the jwt plugin no JWT access token is ever issued: every token is looked up as opaque.
  if (jwtDisabled(ctx)) return null;
  try {
    decodeProtectedHeader(token);
  } catch {
    return null;
  }
  const signer = getService(ctx, JWT_SIGNER);
  // The audiences are checked below against the configured resources: the verifier only needs
  // the token's own list (a token without `aud` fails it).
  const claimed = claimedAudiences(token);
  if (!claimed.length) return INACTIVE;
  const payload = await signer.verify(token, { issuer: tokenIssuer(ctx), audience: claimed });
  if (!payload?.azp || typeof payload.azp !== "string") return INACTIVE;
  // Every audience must be the userinfo URL or a configured resource (deleting one ends its tokens).
  const audiences = [payload.aud].flat().filter((aud): aud is string => typeof aud === "string");
  if (!(await audiencesKnown(ctx, options.resourceStore, audiences))) return INACTIVE;
  // The caller's own token: its row was read by this request's client authentication.
  const client = caller?.clientId === payload.azp ? caller : await findClient(ctx, payload.azp);
  if (!client || client.disabled) return INACTIVE;
  if (callerId && !(await mayIntrospect(ctx, callerId, payload.azp, audiences))) return INACTIVE;
  if (!(await sessionAlive(ctx, payload.sid))) return INACTIVE;
  const tokenType = confirmationJkt(payload.cnf) ? "DPoP" : "Bearer";
  return { payload: { ...payload, client_id: payload.azp, active: true, token_type: tokenType }, requestedUserInfoClaims: [] };
}

/**
 * Checks an access token, JWT first, then opaque (hash lookup): `{ active: false }` when it is
 * unknown, expired, revoked, of a disabled client, of an ended session, naming a resource that
 * is no longer configured, or (with `callerId`) issued to another client that names no resource
 * the caller is linked to (RFC 7662 §4: the answer does not tell which).
 */
export async function checkAccessToken(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  token: string,
  callerId?: string,
  caller?: OAuthClientRow,
): Promise<TokenCheck> {
  const jwt = await checkJwt(ctx, options, token, callerId, caller);
  if (jwt) return jwt;
  const plain = stripPrefix(token, options.prefix?.opaqueAccessToken);
  if (plain === null) return INACTIVE;
  const row = await ctx.adapter.findOne<OAuthAccessTokenRow & Record<string, unknown>>({
    model: "oauthAccessToken",
    where: [{ field: "token", value: await storedToken(options, plain, "access_token") }],
  });
  if (!row || !row.expiresAt || new Date(row.expiresAt).getTime() < Date.now() || row.revoked) return INACTIVE;
  const client = await findClient(ctx, row.clientId);
  if (!client || client.disabled) return INACTIVE;
  if (callerId && !(await mayIntrospect(ctx, callerId, row.clientId, row.resources ?? []))) return INACTIVE;
  if (!(await sessionAlive(ctx, row.sessionId))) return INACTIVE;
  if (row.resources?.length && !(await audiencesKnown(ctx, options.resourceStore, row.resources))) return INACTIVE;
  const audience = row.resources?.length
    ? [...new Set(row.scopes.includes("openid") ? [...row.resources, userInfoURL(ctx)] : row.resources)]
    : undefined;
  const user = (options.customAccessTokenClaims || hasAccessTokenClaimExtension(ctx)) && row.userId ? await ctx.internalAdapter.findUserById(row.userId) : null;
  const custom = await customAccessTokenClaims(ctx, options, {
    client,
    user: user ?? undefined,
    scopes: row.scopes,
    resources: row.resources ?? undefined,
    referenceId: row.referenceId ?? undefined,
    sessionId: row.sessionId ?? undefined,
  });
  const fromResources = row.resources?.length ? withoutReserved(await resourceClaims(ctx, options.resourceStore, row.resources)) : {};
  const payload = Object.fromEntries(
    Object.entries({
      ...fromResources,
      ...custom,
      active: true,
      iss: tokenIssuer(ctx),
      aud: audience && audience.length === 1 ? audience[0] : audience,
      client_id: row.clientId,
      azp: row.clientId,
      sub: row.userId ?? undefined,
      sid: row.sessionId ?? undefined,
      exp: Math.floor(new Date(row.expiresAt).getTime() / 1000),
      iat: Math.floor(new Date(row.createdAt).getTime() / 1000),
      scope: row.scopes.join(" "),
      token_type: confirmationJkt(row.confirmation) ? "DPoP" : "Bearer",
      cnf: confirmationJkt(row.confirmation) ? { jkt: confirmationJkt(row.confirmation) } : undefined,
    }).filter(([, value]) => value !== undefined),
  ) as TokenCheck["payload"];
  return { payload, requestedUserInfoClaims: row.requestedUserInfoClaims ?? [] };
}

/** RFC 7662 for a refresh token: active only for the client it was issued to. Null when unknown. */
export async function checkRefreshToken(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  token: string,
  callerId: string,
): Promise<Record<string, unknown> | null> {
  const plain = await decodeRefreshToken(options, token);
  if (plain === null) return null;
  const row = await ctx.adapter.findOne<OAuthRefreshTokenRow & Record<string, unknown>>({
    model: "oauthRefreshToken",
    where: [{ field: "token", value: await storedToken(options, plain, "refresh_token") }],
  });
  if (!row) return null;
  if (row.clientId !== callerId || new Date(row.expiresAt).getTime() < Date.now() || row.revoked) return { active: false };
  const alive = await sessionAlive(ctx, row.sessionId);
  return Object.fromEntries(
    Object.entries({
      active: true,
      client_id: callerId,
      iss: tokenIssuer(ctx),
      sub: row.userId,
      sid: alive ? (row.sessionId ?? undefined) : undefined,
      exp: Math.floor(new Date(row.expiresAt).getTime() / 1000),
      iat: Math.floor(new Date(row.createdAt).getTime() / 1000),
      scope: row.scopes.join(" "),
      token_type: confirmationJkt(row.confirmation) ? "DPoP" : "Bearer",
      cnf: confirmationJkt(row.confirmation) ? { jkt: confirmationJkt(row.confirmation) } : undefined,
    }).filter(([, value]) => value !== undefined),
  );
}
