import type { EndpointContext } from "@latchkey/core";
import { checkAccessToken } from "./access-token-check.js";
import { authenticateClient, presentedClient } from "./client-auth.js";
import { findClient } from "./clients.js";
import { tokenBinding } from "./dpop-binding.js";
import { quoted } from "./echo.js";
import type { OAuthProviderApi, OAuthTokenResponse } from "./extension-types.js";
import { issueTokens } from "./issue-tokens.js";
import { oauthError } from "./oauth-error.js";
import type { GrantType, ResolvedOAuthOptions } from "./options.js";
import { resolveResourcePolicy } from "./resource-policy.js";
import { storedToken } from "./token-hash.js";

const INVALID_TOKEN = "Invalid access token";

/** The form or JSON body of the request as members (a repeated form member is an array). */
const bodyOf = (ctx: EndpointContext): Record<string, unknown> =>
  ctx.body && typeof ctx.body === "object" && !Array.isArray(ctx.body) ? (ctx.body as Record<string, unknown>) : {};

/**
 * The provider's capabilities bound to the request `ctx` (the reference's function of this
 * name): what an extension grant handler gets as `provider`, and what a companion plugin's own
 * endpoint may use. `grantType` labels the tokens `issueTokens` mints; without it
 * `issueTokens` is a 500 `server_error` (a programming error, as in the reference).
 */
export function getOAuthProviderApi(ctx: EndpointContext, opts: ResolvedOAuthOptions, grantType?: string): OAuthProviderApi {
  const context = ctx.context;
  const endpointUrl = `${context.baseURL}${ctx.path || "/oauth2/token"}`;
  return {
    getClient: (clientId) => findClient(context, clientId),
    async authenticateClient(request) {
      const presented = presentedClient(ctx.headers, bodyOf(ctx), endpointUrl, { ctx, options: opts });
      if (!presented) throw oauthError("BAD_REQUEST", "invalid_request", "Missing required client_id");
      // A public client has nothing to prove; a grant must opt in to accepting one.
      if (request?.requireCredentials !== false && presented.method === "none") {
        throw oauthError("BAD_REQUEST", "invalid_client", "Missing required client credentials");
      }
      const client = await authenticateClient(context, opts, presented, { scopes: request?.scopes, grant: grantType });
      // A client registered without its own scopes may ask only for the provider's.
      const refused = client.scopes ? undefined : request?.scopes?.find((scope) => !opts.scopes.includes(scope));
      if (refused) throw oauthError("BAD_REQUEST", "invalid_scope", `scope ${quoted(refused)} is not supported`);
      return {
        clientId: client.clientId,
        client,
        method: presented.method,
        ...(presented.proven?.confirmation ? { confirmation: presented.proven.confirmation } : {}),
      };
    },
    async issueTokens(params) {
      if (!grantType) throw oauthError("INTERNAL_SERVER_ERROR", "server_error", "issueTokens requires a grant type; pass it to getOAuthProviderApi(ctx, opts, grantType).");
      // Only DPoP key bindings (`jkt`) are carried through issuance; dropping another proven key
      // would hand out a bearer token the caller believes is bound.
      if (params.confirmation && typeof params.confirmation.jkt !== "string") {
        throw oauthError("INTERNAL_SERVER_ERROR", "server_error", "issueTokens supports only jkt confirmations");
      }
      const resources = params.resources?.length ? params.resources : undefined;
      const policy = resources
        ? await resolveResourcePolicy(context, opts.resourceStore, { resources, clientId: params.client.clientId, scopes: params.scopes })
        : undefined;
      // RFC 9449 §5: as at the built-in grants, a DPoP proof on the request binds the tokens (and a
      // client or resource that requires one gets `invalid_dpop_proof` without it), unless the
      // handler passes a key its client authentication already proved.
      const urls = ctx.request ? [endpointUrl, ctx.request.url] : [endpointUrl];
      const confirmation = params.confirmation
        ? { jkt: params.confirmation.jkt }
        : await tokenBinding(context, opts, { proof: ctx.headers.get("dpop") ?? undefined, urls }, { client: params.client, resourceRequires: policy?.dpopRequired });
      const answer = await issueTokens(context, opts, {
        grantType: grantType as GrantType,
        client: params.client,
        scopes: policy?.scopes ?? params.scopes,
        user: params.user,
        sessionId: params.sessionId,
        referenceId: params.referenceId,
        nonce: params.nonce,
        authTime: params.authTime,
        resources,
        policy,
        refreshToken: params.refreshToken,
        requestedUserInfoClaims: params.requestedUserInfoClaims,
        confirmation,
        extra: { accessTokenClaims: params.accessTokenClaims, idTokenClaims: params.idTokenClaims, tokenResponse: params.tokenResponse },
      });
      return answer as OAuthTokenResponse;
    },
    hashToken: (token, type) => storedToken(opts, token, type),
    async validateAccessToken(token, clientId) {
      return (await checkAccessToken(context, opts, token, clientId)).payload;
    },
    async requireActiveAccessToken(token, clientId) {
      const { payload } = await checkAccessToken(context, opts, token, clientId);
      if (!payload.active) {
        throw oauthError("UNAUTHORIZED", "invalid_token", INVALID_TOKEN, { "WWW-Authenticate": `Bearer error="invalid_token", error_description="${INVALID_TOKEN}"` });
      }
      return payload as Record<string, unknown> & { active: true };
    },
  };
}
