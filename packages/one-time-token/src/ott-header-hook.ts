import type { EndpointContext, HookEntry } from "@latchkey/core";
import type { ResolvedOneTimeTokenOptions } from "./options.js";
import { issueToken } from "./token-store.js";

/**
 * With `setOttHeaderOnNewSession`: after any endpoint that created a session, a token for it
 * in the `set-ott` header, exposed to cross-origin scripts (`Access-Control-Expose-Headers`).
 */
export function ottHeaderHook(options: ResolvedOneTimeTokenOptions): HookEntry {
  return {
    matcher: "*",
    when: () => options.setOttHeaderOnNewSession === true,
    handler: async (ctx: EndpointContext) => {
      const created = ctx.context.newSession;
      if (!created) return;
      const token = await issueToken(ctx, options, created);
      ctx.responseHeaders.set("set-ott", token);
      const exposed = new Set(
        (ctx.responseHeaders.get("access-control-expose-headers") ?? "")
          .split(",")
          .map((name) => name.trim())
          .filter(Boolean),
      );
      exposed.add("set-ott");
      ctx.responseHeaders.set("access-control-expose-headers", [...exposed].join(", "));
    },
  };
}
