import { endpoint, type EndpointContext } from "@latchkey/core";
import { authenticateClient, presentedClient } from "../client-auth.js";
import { oauthError } from "../oauth-error.js";
import type { ResolvedOAuthOptions } from "../options.js";
import { revokeJwt, revokeOpaque, revokeRefresh } from "../revocation.js";
import { readCredentialBody } from "./credential-body.js";

/** Revokes what the request names; unknown and foreign tokens are a silent success. */
async function revoke(ctx: EndpointContext, options: ResolvedOAuthOptions): Promise<null> {
  const body = readCredentialBody(ctx.body);
  const presented = presentedClient(ctx.headers, body, `${ctx.context.baseURL}/oauth2/revoke`, { ctx, options });
  if (!presented) throw oauthError("UNAUTHORIZED", "invalid_client", "missing required credentials");
  if (!body.token) throw oauthError("BAD_REQUEST", "invalid_request", "missing a required token for introspection");
  const client = await authenticateClient(ctx.context, options, presented);
  const hint = body.token_type_hint;
  if (hint !== "refresh_token") {
    if ((await revokeJwt(ctx.context, body.token)) === "done") return null;
    if ((await revokeOpaque(ctx.context, options, body.token, client.clientId)) === "done") return null;
  }
  if (hint !== "access_token") await revokeRefresh(ctx.context, options, body.token, client.clientId);
  return null;
}

/**
 * RFC 7009: revokes an access or refresh token of the calling client. Unknown, foreign and
 * already-revoked tokens answer 200 too (§2.2: "invalid tokens do not cause an error"); the
 * reference answers 400 `invalid_request` for them (DIVERGENCES.md row 110).
 */
export function revokeEndpoint(options: ResolvedOAuthOptions) {
  return endpoint(
    "/oauth2/revoke",
    { method: "POST", allowedMediaTypes: ["application/x-www-form-urlencoded"], formMembers: "all" },
    (ctx) => revoke(ctx, options),
  );
}
