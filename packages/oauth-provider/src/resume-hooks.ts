import { APIError, type EndpointContext, type HookEntry, type RequestContext } from "@latchkey/core";
import { paramsToRecord } from "./authorization-request.js";
import { runAuthorize } from "./authorize-flow.js";
import type { ResolvedOAuthOptions } from "./options.js";
import { ISSUED_AT_PARAM, verifySignedQuery } from "./signed-query.js";

/** The verified authorization request a sign-in page handed back, per request. */
const pending = new WeakMap<RequestContext, URLSearchParams>();

/** Routes that read `oauth_query` themselves. */
const OWN_ROUTES = new Set(["/oauth2/consent", "/oauth2/authorize", "/oauth2/continue"]);

const oauthQueryOf = (ctx: EndpointContext): string | undefined => {
  const body = ctx.body;
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
  const value = (body as Record<string, unknown>).oauth_query;
  return typeof value === "string" && value ? value : undefined;
};

/**
 * Before any route whose body carries `oauth_query` (the login page posting a sign-in): the
 * signed request must verify (else 400 `invalid_signature`); it is kept for the after hook.
 */
function verifyHook(): HookEntry {
  return {
    matcher: "*",
    when: (ctx) => !OWN_ROUTES.has(ctx.path) && oauthQueryOf(ctx) !== undefined,
    handler: async (ctx) => {
      const params = await verifySignedQuery(oauthQueryOf(ctx)!, ctx.context.secret);
      if (!params) throw new APIError("BAD_REQUEST", { error: "invalid_signature" });
      pending.set(ctx.context, params);
    },
  };
}

/**
 * After such a route signs the user in (its answer sets the session cookie): the authorization
 * resumes with the new session, and its redirect replaces the route's answer. `prompt=login` is
 * satisfied by this sign-in, and so is a `max_age` the session is newer than.
 */
function resumeHook(options: ResolvedOAuthOptions): HookEntry {
  return {
    matcher: "*",
    when: (ctx) => pending.has(ctx.context),
    handler: async (ctx) => {
      const params = pending.get(ctx.context)!;
      pending.delete(ctx.context);
      const created = ctx.context.newSession;
      const cookie = ctx.context.authCookies.sessionToken.name;
      if (!created || !ctx.responseHeaders.getSetCookie().some((line) => line.startsWith(`${cookie}=`))) return undefined;
      const prompts = (params.get("prompt") ?? "").split(" ").filter((p) => p && p !== "login");
      if (prompts.length) params.set("prompt", prompts.join(" "));
      else params.delete("prompt");
      const issuedAt = Number(params.get(ISSUED_AT_PARAM));
      if (Number.isFinite(issuedAt) && new Date(created.session.createdAt).getTime() >= issuedAt) params.delete("max_age");
      ctx.context.session = created;
      // A page's script gets `{ redirect, url }`; only a top-level navigation gets the 302.
      const mode = ctx.headers.get("sec-fetch-mode")?.toLowerCase();
      const accept = ctx.headers.get("accept")?.toLowerCase() ?? "";
      if (!(mode === "navigate" || (!mode && (accept.includes("text/html") || accept.includes("application/xhtml+xml"))))) {
        ctx.headers.set("accept", "application/json");
      }
      return runAuthorize(ctx, options, paramsToRecord(params));
    },
  };
}

/** The hooks that let a login page resume the authorization it was sent from. */
export const resumeHooks = (options: ResolvedOAuthOptions): { before: HookEntry[]; after: HookEntry[] } => ({
  before: [verifyHook()],
  after: [resumeHook(options)],
});
