import { getService, type AuthContext } from "@latchkey/core";
import { JWT_SIGNER } from "@latchkey/jwt";
import { decodeRefreshToken } from "./refresh-token-format.js";
import { decodeProtectedHeader } from "jose";
import { jwtDisabled, tokenIssuer, userInfoURL } from "./issuer.js";
import { oauthError } from "./oauth-error.js";
import type { ResolvedOAuthOptions } from "./options.js";
import { invalidateRefreshFamily } from "./refresh-tokens.js";
import type { OAuthAccessTokenRow, OAuthRefreshTokenRow } from "./schema.js";
import { storedToken, stripPrefix } from "./token-hash.js";

/** What a revocation found: done, or the token was not one of this kind. */
type Outcome = "done" | "unknown";

/**
 * A JWT access token cannot be revoked server-side: a live one of ours answers
 * `unsupported_token_type` (RFC 7009 §2.2.1, spec States); an expired or foreign one is done.
 */
export async function revokeJwt(ctx: AuthContext, token: string): Promise<Outcome> {
  if (jwtDisabled(ctx)) return "unknown";
  try {
    decodeProtectedHeader(token);
  } catch {
    return "unknown";
  }
  const payload = await getService(ctx, JWT_SIGNER).verify(token, { issuer: tokenIssuer(ctx), audience: [userInfoURL(ctx)] });
  if (payload?.azp) throw oauthError("BAD_REQUEST", "unsupported_token_type", "JWT access tokens are self-contained and cannot be revoked server-side");
  return "done";
}

/** Deletes an opaque access token of the caller; another client's is left alone (a silent success). */
export async function revokeOpaque(ctx: AuthContext, options: ResolvedOAuthOptions, token: string, clientId: string): Promise<Outcome> {
  const plain = stripPrefix(token, options.prefix?.opaqueAccessToken);
  if (plain === null) return "unknown";
  const row = await ctx.adapter.findOne<OAuthAccessTokenRow & Record<string, unknown>>({
    model: "oauthAccessToken",
    where: [{ field: "token", value: await storedToken(options, plain, "access_token") }],
  });
  if (!row) return "unknown";
  if (row.clientId === clientId) await ctx.adapter.delete({ model: "oauthAccessToken", where: [{ field: "id", value: row.id }] });
  return "done";
}

/**
 * Revokes a refresh token of the caller and the access tokens issued with it (RFC 7009 §2.1),
 * with a guarded update so two revocations cannot both act. A token already revoked ends its
 * whole family (a replay signal); the answer is still 200 (RFC 7009 §2.2).
 */
export async function revokeRefresh(ctx: AuthContext, options: ResolvedOAuthOptions, token: string, clientId: string): Promise<Outcome> {
  const plain = await decodeRefreshToken(options, token);
  if (plain === null) return "unknown";
  const row = await ctx.adapter.findOne<OAuthRefreshTokenRow & Record<string, unknown>>({
    model: "oauthRefreshToken",
    where: [{ field: "token", value: await storedToken(options, plain, "refresh_token") }],
  });
  if (!row) return "unknown";
  if (row.clientId !== clientId) return "done";
  const revoked = row.revoked
    ? null
    : await ctx.internalAdapter.incrementOne({
        model: "oauthRefreshToken",
        where: [
          { field: "id", value: row.id },
          { field: "revoked", value: null },
        ],
        increment: {},
        set: { revoked: new Date(Math.floor(Date.now() / 1000) * 1000) },
      });
  if (!revoked) {
    await invalidateRefreshFamily(ctx, clientId, row.userId);
    return "done";
  }
  await ctx.adapter.deleteMany({ model: "oauthAccessToken", where: [{ field: "refreshId", value: row.id }] });
  return "done";
}
