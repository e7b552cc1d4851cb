import { generateRandomString, symmetricDecrypt, symmetricEncrypt, type Adapter, type AuthContext, type User } from "@latchkey/core";
import { oauthError } from "./oauth-error.js";
import { encodeRefreshToken } from "./refresh-token-format.js";
import type { ResolvedOAuthOptions } from "./options.js";
import type { OAuthClientRow, OAuthRefreshTokenRow } from "./schema.js";
import { storedToken } from "./token-hash.js";
import { insertRow } from "./token-rows.js";
import type { Confirmation } from "./dpop-binding.js";

/** What a refresh token is issued for. */
export interface RefreshTokenInput {
  client: OAuthClientRow;
  user: User;
  scopes: string[];
  iat: number;
  exp: number;
  sessionId?: string | null | undefined;
  referenceId?: string | null | undefined;
  authorizationCodeId?: string | null | undefined;
  authTime?: Date | null | undefined;
  resources?: string[] | null | undefined;
  requestedUserInfoClaims?: string[] | undefined;
  /** RFC 9449 §5 binding of the refresh token (public clients). */
  confirmation?: Confirmation | undefined;
  /** The token this one replaces (rotation). */
  previous?: OAuthRefreshTokenRow | undefined;
}

/**
 * Issues a refresh token (32 letters, stored hashed, handed out with the prefix). On rotation
 * the old row is first marked `revoked = rotatedAt = now` with a guarded update that only
 * matches while it is unrevoked, so of two concurrent refreshes exactly one rotates and the
 * other gets `invalid_grant` (RFC 9700 §4.14.2).
 */
export async function createRefreshToken(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  input: RefreshTokenInput,
  adapter: Adapter = ctx.adapter,
): Promise<{ id: string; token: string }> {
  const token = options.generateRefreshToken ? await options.generateRefreshToken() : generateRandomString(32, "A-Z", "a-z");
  if (input.previous) {
    const rotatedAt = new Date(input.iat * 1000);
    const set: Record<string, unknown> = { revoked: rotatedAt, rotatedAt };
    if (options.refreshTokenReuseInterval > 0) {
      set.rotationReplayExpiresAt = new Date((input.iat + options.refreshTokenReuseInterval) * 1000);
    }
    const rotated = await adapter.incrementOne({
      model: "oauthRefreshToken",
      where: [
        { field: "id", value: input.previous.id },
        { field: "revoked", value: null },
      ],
      increment: {},
      set,
    });
    if (!rotated) throw oauthError("BAD_REQUEST", "invalid_grant", "invalid refresh token");
  }
  const row = await insertRow<OAuthRefreshTokenRow>(ctx, adapter, "oauthRefreshToken", {
    token: await storedToken(options, token, "refresh_token"),
    clientId: input.client.clientId,
    sessionId: input.sessionId ?? null,
    userId: input.user.id,
    referenceId: input.referenceId ?? null,
    authorizationCodeId: input.authorizationCodeId ?? null,
    authTime: input.authTime ?? null,
    confirmation: input.confirmation ?? null,
    requestedUserInfoClaims: input.requestedUserInfoClaims?.length ? input.requestedUserInfoClaims : null,
    scopes: input.scopes,
    resources: input.resources ?? null,
    createdAt: new Date(input.iat * 1000),
    expiresAt: new Date(input.exp * 1000),
  });
  return { id: row.id, token: await encodeRefreshToken(options, token, input.sessionId ?? undefined) };
}

/**
 * RFC 9700 §4.14.2: a rotated refresh token presented again ends the whole family of the
 * (client, user) pair, access tokens first (they reference the refresh rows).
 */
export async function invalidateRefreshFamily(ctx: AuthContext, clientId: string, userId: string): Promise<void> {
  const family = await ctx.adapter.findMany<OAuthRefreshTokenRow & Record<string, unknown>>({
    model: "oauthRefreshToken",
    where: [
      { field: "clientId", value: clientId },
      { field: "userId", value: userId },
    ],
  });
  if (family.length) {
    await ctx.adapter.deleteMany({ model: "oauthAccessToken", where: [{ field: "refreshId", operator: "in", value: family.map((row) => row.id) }] });
  }
  await ctx.adapter.deleteMany({
    model: "oauthRefreshToken",
    where: [
      { field: "clientId", value: clientId },
      { field: "userId", value: userId },
    ],
  });
}

/** The parts of a refresh request a replayed answer must match (scopes, resources). */
export interface ReplayRequest {
  effectiveScopes: string[];
  requestedResources?: string[];
}

const normalise = (values: string[] | undefined): string[] | undefined => (values ? [...new Set(values)].sort() : undefined);
const sameList = (a: string[] | undefined, b: string[] | undefined): boolean =>
  JSON.stringify(normalise(a) ?? null) === JSON.stringify(normalise(b) ?? null);

/** The replay request in the reference's stored shape. */
export function replayRequest(scopes: string[], resources: string[] | undefined): ReplayRequest {
  const requested = normalise(resources);
  return { effectiveScopes: normalise(scopes) ?? [], ...(requested ? { requestedResources: requested } : {}) };
}

/**
 * Keeps the answer of a rotation on the old row, encrypted with the auth secret (it holds the
 * new tokens), so the same request within `refreshTokenReuseInterval` gets it again.
 */
export async function storeRotationReplay(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  previous: OAuthRefreshTokenRow,
  request: ReplayRequest,
  response: Record<string, unknown>,
): Promise<void> {
  if (options.refreshTokenReuseInterval <= 0) return;
  const sealed = await symmetricEncrypt({ key: ctx.secret, data: JSON.stringify({ request, response }) });
  await ctx.adapter.update({ model: "oauthRefreshToken", where: [{ field: "id", value: previous.id }], update: { rotationReplayResponse: sealed } });
}

/** The stored answer for an identical request inside the reuse window, with `expires_in` recomputed; else undefined. */
export async function rotationReplay(
  ctx: AuthContext,
  row: OAuthRefreshTokenRow,
  request: ReplayRequest,
): Promise<Record<string, unknown> | undefined> {
  if (!row.rotatedAt || !row.rotationReplayExpiresAt || new Date(row.rotationReplayExpiresAt).getTime() < Date.now()) return undefined;
  if (!row.rotationReplayResponse) return undefined;
  try {
    const replay = JSON.parse(await symmetricDecrypt({ key: ctx.secret, data: row.rotationReplayResponse })) as {
      request?: ReplayRequest;
      response?: Record<string, unknown> & { expires_at?: number };
    };
    if (!replay.request || !replay.response || typeof replay.response.expires_at !== "number") return undefined;
    if (!sameList(replay.request.effectiveScopes, request.effectiveScopes)) return undefined;
    if (!sameList(replay.request.requestedResources, request.requestedResources)) return undefined;
    const now = Math.floor(Date.now() / 1000);
    return { ...replay.response, expires_in: Math.max(0, replay.response.expires_at - now) };
  } catch (error) {
    ctx.logger.error("refresh token rotation replay failed", error instanceof Error ? error.name : "unknown");
    return undefined;
  }
}
