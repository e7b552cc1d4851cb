import type { EndpointContext, HookEntry } from "@latchkey/core";
import type { ResolvedJwtOptions } from "./options.js";
import { sessionToken } from "./session-token.js";

/** The response header that carries a session JWT on `/get-session` answers. */
export const SET_AUTH_JWT_HEADER = "set-auth-jwt";

/** Adds a header to a comma-separated `Access-Control-Expose-Headers` list, once. */
function exposeHeader(current: string | null, header: string): string {
  const names = new Set(
    (current ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean),
  );
  names.add(header);
  return [...names].join(", ");
}

/**
 * After `/get-session` with a session: a JWT for it in `set-auth-jwt`, exposed to
 * cross-origin scripts (browsers hide response headers from `fetch` unless CORS exposes them).
 */
export function setAuthJwtHook(options: ResolvedJwtOptions): HookEntry {
  return {
    matcher: ["getSession"],
    handler: async (ctx: EndpointContext) => {
      const session = ctx.context.session ?? ctx.context.newSession;
      if (!session?.session) return;
      ctx.setHeader(SET_AUTH_JWT_HEADER, await sessionToken(ctx.context, options, session));
      const exposed = ctx.responseHeaders.get("access-control-expose-headers");
      ctx.setHeader("Access-Control-Expose-Headers", exposeHeader(exposed, SET_AUTH_JWT_HEADER));
    },
  };
}
