import { endpoint, type EndpointContext } from "@latchkey/core";
import { checkAccessToken, checkRefreshToken } from "../access-token-check.js";
import { authenticateClient, presentedClient } from "../client-auth.js";
import { NO_STORE, oauthError, withNoStore } from "../oauth-error.js";
import type { ResolvedOAuthOptions } from "../options.js";
import { presentedSubject } from "../subject.js";
import { readCredentialBody } from "./credential-body.js";

/** The RFC 7662 §2.2 answer for one request. */
async function introspect(ctx: EndpointContext, options: ResolvedOAuthOptions): Promise<Record<string, unknown>> {
  const body = readCredentialBody(ctx.body);
  const presented = presentedClient(ctx.headers, body, `${ctx.context.baseURL}/oauth2/introspect`, { ctx, options });
  if (!presented || presented.method === "none") throw oauthError("UNAUTHORIZED", "invalid_client", "missing required credentials");
  if (!body.token) throw oauthError("BAD_REQUEST", "invalid_request", "missing a required token for introspection");
  const client = await authenticateClient(ctx.context, options, presented);
  const hint = body.token_type_hint;
  if (hint !== "refresh_token") {
    const access = await checkAccessToken(ctx.context, options, body.token, client.clientId, client);
    if (access.payload.active || hint === "access_token") return presentedSubject(ctx.context, options, access.payload, client);
  }
  const refresh = await checkRefreshToken(ctx.context, options, body.token, client.clientId);
  return refresh ? presentedSubject(ctx.context, options, refresh, client) : { active: false };
}

/**
 * RFC 7662: a confidential client asks whether a token is active. Tokens of other clients,
 * unknown, expired or revoked ones all answer `{ active: false }` (§2.2, §4). Answers, errors
 * included, are `no-store`, as the reference's.
 */
export function introspectEndpoint(options: ResolvedOAuthOptions) {
  return endpoint(
    "/oauth2/introspect",
    { method: "POST", allowedMediaTypes: ["application/x-www-form-urlencoded"], formMembers: "all" },
    async (ctx) => {
      for (const [name, value] of Object.entries(NO_STORE)) ctx.setHeader(name, value);
      try {
        return await introspect(ctx, options);
      } catch (error) {
        throw withNoStore(error);
      }
    },
  );
}
