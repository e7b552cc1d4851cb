import type { EndpointContext, HookEntry } from "@latchkey/core";
import { expireMultiCookie, liveSession, multiCookieName, readMultiCookies } from "./multi-cookie.js";
import type { ResolvedMultiSessionOptions } from "./options.js";

/**
 * After any endpoint whose response starts a session (sign-in, sign-up, a plugin sign-in):
 * remember it in a multi cookie, unless the browser already holds one for it. Older sessions
 * of the same user in this browser are deleted and their cookies expired (one session per
 * user, as the reference). Past `maximumSessions` live sessions the cookie is not added.
 */
export function newSessionHook(options: ResolvedMultiSessionOptions): HookEntry {
  return {
    matcher: "*",
    handler: async (ctx: EndpointContext) => {
      const created = ctx.context.newSession;
      if (!created || ctx.responseHeaders.getSetCookie().length === 0) return;
      const name = multiCookieName(ctx, created.session.token);
      if (alreadyHeld(ctx, name)) return;
      const stale: string[] = [];
      let held = 0;
      for (const cookie of await readMultiCookies(ctx)) {
        const found = await liveSession(ctx, cookie.token);
        if (found?.user.id === created.user.id) {
          stale.push(cookie.token);
          expireMultiCookie(ctx, cookie.name);
        } else if (found) {
          // Only live sessions count: the reference also counts cookies that fail their
          // signature and those of ended sessions, so junk could lock a browser out.
          held += 1;
        }
      }
      if (stale.length) await ctx.context.internalAdapter.deleteSessions(stale);
      if (held + 1 > options.maximumSessions) return;
      const { attributes } = ctx.context.authCookies.sessionToken;
      await ctx.setSignedCookie(name, created.session.token, attributes);
    },
  };
}

/** The request sends, or the response already sets, the multi cookie `name`. */
function alreadyHeld(ctx: EndpointContext, name: string): boolean {
  if (ctx.getCookie(name) !== undefined) return true;
  return ctx.responseHeaders.getSetCookie().some((line) => line.startsWith(`${name}=`));
}
