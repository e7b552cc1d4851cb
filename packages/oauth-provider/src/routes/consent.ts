import { endpoint, sessionMiddleware } from "@latchkey/core";
import * as v from "valibot";
import { paramsToRecord } from "../authorization-request.js";
import { runAuthorize } from "../authorize-flow.js";
import { requestedUserInfoClaims } from "../claims-request.js";
import { errorRedirectURL } from "../interaction.js";
import { issuerOf } from "../issuer.js";
import { oauthError } from "../oauth-error.js";
import type { ResolvedOAuthOptions } from "../options.js";
import type { OAuthConsentRow } from "../schema.js";
import { POST_LOGIN_PARAM, verifySignedQuery } from "../signed-query.js";

const body = v.object({
  accept: v.boolean(),
  scope: v.optional(v.string()),
  oauth_query: v.optional(v.string()),
});

/**
 * `POST /oauth2/consent`: the signed-in user accepts (all or some of the requested scopes) or
 * denies the request the consent page received as `oauth_query`. Acceptance stores the
 * `oauthConsent` row and resumes the authorization; denial returns `access_denied` to the client.
 */
export function consentEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/oauth2/consent", { method: "POST", body, use: [sessionMiddleware] }, async (ctx) => {
    const signed = ctx.body.oauth_query ? await verifySignedQuery(ctx.body.oauth_query, ctx.context.secret) : null;
    if (ctx.body.oauth_query && !signed) throw oauthError("BAD_REQUEST", "invalid_signature", undefined);
    if (!signed) throw oauthError("BAD_REQUEST", "invalid_request", "missing oauth query");
    const original = signed.get("scope")?.split(" ") ?? [];
    const clientId = signed.get("client_id");
    if (!clientId) throw oauthError("BAD_REQUEST", "invalid_client", "client_id is required");
    const accepted = ctx.body.scope?.split(" ");
    if (accepted && !accepted.every((scope) => original.includes(scope))) {
      throw oauthError("BAD_REQUEST", "invalid_request", "Scope not originally requested");
    }
    if (!ctx.body.accept) {
      const url = errorRedirectURL(signed.get("redirect_uri") ?? "", "access_denied", "User denied access", signed.get("state") ?? undefined, issuerOf(ctx.context));
      return { redirect: true, url };
    }
    const session = ctx.context.session;
    const claims = requestedUserInfoClaims(signed.get("claims") ?? undefined, options.advertisedMetadata?.claims_supported ?? options.claims);
    const resources = signed.getAll("resource");
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    const fields = { scopes: accepted ?? original, requestedUserInfoClaims: claims, resources: resources.length ? resources : null, updatedAt: now };
    const found = await ctx.context.adapter.findOne<OAuthConsentRow & Record<string, unknown>>({
      model: "oauthConsent",
      where: [
        { field: "clientId", value: clientId },
        { field: "userId", value: session.user.id },
      ],
    });
    if (found) await ctx.context.adapter.update({ model: "oauthConsent", where: [{ field: "id", value: found.id }], update: fields });
    else await ctx.context.internalAdapter.create("oauthConsent", { clientId, userId: session.user.id, createdAt: now, ...fields });
    if (accepted) signed.set("scope", fields.scopes.join(" "));
    // Resume the authorization without the consent prompt; the answer is JSON for the page's script.
    const prompts = (signed.get("prompt") ?? "").split(" ").filter((p) => p && p !== "consent");
    if (prompts.length) signed.set("prompt", prompts.join(" "));
    else signed.delete("prompt");
    ctx.headers.set("accept", "application/json");
    return runAuthorize(ctx, options, paramsToRecord(signed), { postLogin: signed.get(POST_LOGIN_PARAM) === session.session.id });
  });
}
