import { endpoint } from "@latchkey/core";
import { runAuthorize } from "../authorize-flow.js";
import type { ResolvedOAuthOptions } from "../options.js";

/**
 * RFC 6749 §4.1.1: the authorization endpoint, parameters in the query (GET) or a form body
 * (POST, OIDC Core §3.1.2.1). Answers with a redirect (302, or JSON for scripts).
 */
export function authorizeEndpoint(options: ResolvedOAuthOptions) {
  return endpoint(
    "/oauth2/authorize",
    { method: ["GET", "POST"], allowedMediaTypes: ["application/x-www-form-urlencoded"], formMembers: "all" },
    async (ctx) => {
      const source = ctx.method === "POST" ? ctx.body : ctx.query;
      const raw = source && typeof source === "object" && !Array.isArray(source) ? { ...(source as Record<string, unknown>) } : {};
      return runAuthorize(ctx, options, raw, { isAuthorize: true });
    },
  );
}
