import type { EndpointContext, HookEntry } from "@latchkey/core";
import type { ResolvedLastLoginMethodOptions } from "./options.js";
import { resolveLoginMethod } from "./resolve-method.js";

/**
 * Whether the response sets the session cookie to a live value. The reference looks for the
 * cookie's name anywhere in any `Set-Cookie`; this reads the name exactly and skips deletions
 * (empty value or `Max-Age` ≤ 0), so a sign-out or a `..._multi-` cookie never counts.
 */
export function setsSessionCookie(setCookies: readonly string[], name: string): boolean {
  return setCookies.some((line) => {
    const [pair = "", ...attributes] = line.split(";");
    const eq = pair.indexOf("=");
    if (eq < 0 || pair.slice(0, eq).trim() !== name || pair.slice(eq + 1).trim() === "") return false;
    return !attributes.some((attribute) => {
      const [key = "", value = ""] = attribute.split("=");
      return key.trim().toLowerCase() === "max-age" && Number.parseInt(value.trim(), 10) <= 0;
    });
  });
}

/**
 * After every endpoint: when the request is a sign-in of a known method and the response
 * starts a session, write the method in a cookie scripts can read. It takes the session
 * cookie's attributes (domain, path, `Secure`, SameSite) with its own max age, and without
 * `HttpOnly`: the page reads it to highlight the method used last. It holds no secret.
 */
export function lastLoginCookieHook(options: ResolvedLastLoginMethodOptions): HookEntry {
  return {
    matcher: "*",
    handler: async (ctx: EndpointContext) => {
      const method = resolveLoginMethod(options, ctx);
      if (!method) return;
      const session = ctx.context.authCookies.sessionToken;
      if (!setsSessionCookie(ctx.responseHeaders.getSetCookie(), session.name)) return;
      if (options.beforeStoreCookie) {
        let permitted = false;
        try {
          permitted = (await options.beforeStoreCookie(ctx, method)) === true;
        } catch (error) {
          ctx.context.logger.error(
            "[LastLoginMethod] beforeStoreCookie threw; the cookie is not written",
            error,
          );
        }
        if (!permitted) return;
      }
      ctx.setCookie(options.cookieName, method, {
        ...session.attributes,
        maxAge: options.maxAge,
        httpOnly: false,
      });
    },
  };
}
