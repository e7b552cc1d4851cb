import { getSessionFromRequest, type EndpointContext, type HookEntry } from "@latchkey/core";
import type { AnonymousOptions } from "./options.js";
import { isAnonymous } from "./routes/sign-in-anonymous.js";

/**
 * The paths after which a browser may have left its anonymous session for a real account: every
 * sign-in and sign-up, OAuth callbacks, and the verification routes of the plugins that sign in
 * (the reference's list; prefixes, so a plugin that is not installed costs nothing).
 */
const SIGN_IN_PATHS = [
  "/sign-in",
  "/sign-up",
  "/callback",
  "/magic-link/verify",
  "/email-otp/verify-email",
  "/one-tap/callback",
  "/passkey/verify-authentication",
  "/phone-number/verify",
  "/verify-email",
];

/**
 * After a sign-in path answered with a new session while the request still carried an
 * anonymous session: `onLinkAccount` runs, then the anonymous user is deleted (with their
 * sessions and accounts) unless `disableDeleteAnonymousUser`, or the new session belongs to
 * the same user or to another anonymous user. A failed deletion is logged; the sign-in stands.
 */
export function linkAccountHook(options: AnonymousOptions): HookEntry {
  return {
    matcher: "*",
    when: (ctx) => SIGN_IN_PATHS.some((prefix) => ctx.path.startsWith(prefix)),
    handler: async (ctx: EndpointContext) => {
      const created = ctx.context.newSession;
      if (!created || !setsSessionCookie(ctx)) return;
      const previous = await getSessionFromRequest(ctx, { disableRefresh: true });
      if (!previous || !isAnonymous(previous.user)) return;
      await options.onLinkAccount?.({ anonymousUser: previous, newUser: created, ctx });
      if (options.disableDeleteAnonymousUser) return;
      if (created.user.id === previous.user.id || isAnonymous(created.user)) return;
      try {
        await ctx.context.internalAdapter.deleteUser(previous.user.id, ctx);
      } catch (error) {
        ctx.context.logger.error(
          "anonymous: failed to delete the anonymous user after it linked an account",
          {
            anonymousUserId: previous.user.id,
            error,
          },
        );
      }
    },
  };
}

/** The response sets a non-empty session cookie (a sign-in that only ended a session does not). */
function setsSessionCookie(ctx: EndpointContext): boolean {
  const prefix = `${ctx.context.authCookies.sessionToken.name}=`;
  return ctx.responseHeaders
    .getSetCookie()
    .some((line) => line.startsWith(prefix) && line.length > prefix.length && line[prefix.length] !== ";");
}
