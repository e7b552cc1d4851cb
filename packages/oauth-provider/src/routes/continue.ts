import { endpoint, sessionMiddleware } from "@latchkey/core";
import * as v from "valibot";
import { paramsToRecord } from "../authorization-request.js";
import { runAuthorize } from "../authorize-flow.js";
import { oauthError } from "../oauth-error.js";
import type { ResolvedOAuthOptions } from "../options.js";
import { POST_LOGIN_PARAM, verifySignedQuery } from "../signed-query.js";

const body = v.object({
  selected: v.optional(v.boolean()),
  created: v.optional(v.boolean()),
  postLogin: v.optional(v.boolean()),
  oauth_query: v.optional(v.string()),
});

/** The request without one prompt value. */
function withoutPrompt(params: URLSearchParams, prompt: string): URLSearchParams {
  const rest = (params.get("prompt") ?? "").split(" ").filter((value) => value && value !== prompt);
  if (rest.length) params.set("prompt", rest.join(" "));
  else params.delete("prompt");
  return params;
}

/**
 * `POST /oauth2/continue`: the account-selection, sign-up or post-login page hands back the
 * signed request (`oauth_query`) once its step is done (`selected`, `created` or `postLogin`),
 * and the authorization resumes for the signed-in user; the answer is `{ redirect, url }`.
 */
export function continueEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/oauth2/continue", { method: "POST", body, use: [sessionMiddleware] }, async (ctx) => {
    const step = ctx.body.selected === true ? "selected" : ctx.body.created === true ? "created" : ctx.body.postLogin === true ? "postLogin" : undefined;
    if (!step) throw oauthError("BAD_REQUEST", "invalid_request", "Missing parameters");
    const signed = ctx.body.oauth_query ? await verifySignedQuery(ctx.body.oauth_query, ctx.context.secret) : null;
    if (ctx.body.oauth_query && !signed) throw oauthError("BAD_REQUEST", "invalid_signature", undefined);
    if (!signed) throw oauthError("BAD_REQUEST", "invalid_request", "missing oauth query");
    ctx.headers.set("accept", "application/json");
    if (step === "selected") return runAuthorize(ctx, options, paramsToRecord(withoutPrompt(signed, "select_account")));
    if (step === "created") return runAuthorize(ctx, options, paramsToRecord(withoutPrompt(signed, "create")));
    return runAuthorize(ctx, options, paramsToRecord(signed), { postLogin: signed.get(POST_LOGIN_PARAM) === ctx.context.session.session.id });
  });
}
