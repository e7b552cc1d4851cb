import { tokenBinding, type DpopRequest } from "../dpop-binding.js";
import type { AuthContext } from "@latchkey/core";
import { decodeRefreshToken } from "../refresh-token-format.js";
import { authenticateClient, type PresentedClient } from "../client-auth.js";
import { issueTokens } from "../issue-tokens.js";
import { resolveResourcePolicy } from "../resource-policy.js";
import { oauthError } from "../oauth-error.js";
import type { ResolvedOAuthOptions } from "../options.js";
import { invalidateRefreshFamily, replayRequest, rotationReplay } from "../refresh-tokens.js";
import type { OAuthRefreshTokenRow } from "../schema.js";
import { storedToken } from "../token-hash.js";
import type { TokenBody } from "./token-body.js";
import { quoted } from "../echo.js";

const invalidRefresh = () => oauthError("BAD_REQUEST", "invalid_grant", "invalid refresh token");

/**
 * RFC 6749 §6 with rotation (RFC 9700 §4.14.2): the presented token is spent and a new one
 * issued; scopes and resources may only narrow. A spent token presented again ends the whole
 * family, except inside `refreshTokenReuseInterval`, where the identical request gets the
 * answer it already had (a client that lost the response).
 */
export async function refreshTokenGrant(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  body: TokenBody,
  presented: PresentedClient | null,
  dpop: DpopRequest = { urls: [] },
): Promise<Record<string, unknown>> {
  if (!presented) throw oauthError("BAD_REQUEST", "invalid_request", "Missing required client_id");
  if (!body.refresh_token) throw oauthError("BAD_REQUEST", "invalid_request", "Missing a required refresh_token for refresh_token grant");
  const plain = await decodeRefreshToken(options, body.refresh_token);
  if (plain === null) throw oauthError("BAD_REQUEST", "invalid_token", "refresh token not found");
  const row = await ctx.adapter.findOne<OAuthRefreshTokenRow & Record<string, unknown>>({
    model: "oauthRefreshToken",
    where: [{ field: "token", value: await storedToken(options, plain, "refresh_token") }],
  });
  if (!row) throw oauthError("BAD_REQUEST", "invalid_grant", "session not found");
  if (row.clientId !== presented.clientId) throw invalidRefresh();
  if (new Date(row.expiresAt).getTime() < Date.now()) throw invalidRefresh();
  // Spec rule 3: narrow only; a grant made without resources gains none (the reference lets one be added).
  if (body.resource && !body.resource.every((resource) => (row.resources ?? []).includes(resource))) {
    throw oauthError("BAD_REQUEST", "invalid_target", "requested resource invalid");
  }
  const requested = body.scope?.split(" ");
  const unknown = requested?.find((scope) => !row.scopes.includes(scope));
  if (unknown) throw oauthError("BAD_REQUEST", "invalid_scope", `unable to issue scope ${quoted(unknown)}`);
  const scopes = requested ?? row.scopes;
  const client = await authenticateClient(ctx, options, presented, { scopes, grant: "refresh_token" });
  const resources = body.resource ?? row.resources ?? undefined;
  // RFC 9449 §5: a bound refresh token is used only with a proof by its key.
  const policy = await resolveResourcePolicy(ctx, options.resourceStore, { resources, clientId: client.clientId, scopes });
  const confirmation = await tokenBinding(ctx, options, dpop, { client, refreshConfirmation: row.confirmation, resourceRequires: policy.dpopRequired });
  if (row.revoked) {
    const replay = await rotationReplay(ctx, row, replayRequest(policy.scopes, resources));
    if (replay) return replay;
    if (!(row.rotatedAt && row.rotationReplayExpiresAt && new Date(row.rotationReplayExpiresAt).getTime() >= Date.now())) {
      await invalidateRefreshFamily(ctx, client.clientId, row.userId);
    }
    throw invalidRefresh();
  }
  const user = await ctx.internalAdapter.findUserById(row.userId);
  if (!user) throw oauthError("BAD_REQUEST", "invalid_request", "user not found");
  return issueTokens(ctx, options, {
    grantType: "refresh_token",
    client,
    scopes: policy.scopes,
    user,
    sessionId: row.sessionId,
    referenceId: row.referenceId,
    authorizationCodeId: row.authorizationCodeId,
    authTime: row.authTime ? new Date(row.authTime) : undefined,
    resources,
    policy,
    requestedUserInfoClaims: row.requestedUserInfoClaims ?? undefined,
    refreshToken: row,
    confirmation,
  });
}
