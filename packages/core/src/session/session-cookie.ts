import type { EndpointContext } from "../api/context.js";
import type { SessionWithUser } from "../db/internal-adapter.js";
import type { CookieAttributes } from "../options.js";
import { clearChunkedCookie } from "../cookies/chunks.js";
import { setCookieCache } from "../cookies/cookie-cache.js";

/**
 * Writes the signed session cookie for a new or refreshed session, and the session cache
 * cookie when `session.cookieCache` is enabled (so sign-in, sign-up and profile or session
 * updates all re-issue it). A session the user chose not to remember gets a browser-session
 * cookie (no Max-Age) and the signed `dont_remember` marker, which later refreshes honour.
 */
export async function setSessionCookie(
  ctx: EndpointContext,
  data: SessionWithUser,
  dontRememberMe?: boolean,
  overrides: CookieAttributes = {},
): Promise<void> {
  const { sessionToken, dontRememberToken } = ctx.context.authCookies;
  const forget = dontRememberMe ?? !!(await ctx.getSignedCookie(dontRememberToken.name));
  await ctx.setSignedCookie(sessionToken.name, data.session.token, {
    ...sessionToken.attributes,
    maxAge: forget ? undefined : ctx.context.sessionConfig.expiresIn,
    ...overrides,
  });
  if (forget) await ctx.setSignedCookie(dontRememberToken.name, "true", dontRememberToken.attributes);
  // The cache is bound to the token just written: it carries that token and is refused
  // with any other session cookie.
  await setCookieCache(ctx, data, forget);
  ctx.context.newSession = data;
}

/**
 * Expires the session cookie, the cache cookie and every chunk of it the browser holds, and
 * (unless asked not to) `dont_remember`. Runs whether or not the cache is enabled, so a
 * leftover cache never outlives its session.
 */
export function deleteSessionCookie(ctx: EndpointContext, keepDontRemember = false): void {
  const { sessionToken, sessionData, dontRememberToken } = ctx.context.authCookies;
  ctx.expireCookie(sessionToken);
  ctx.expireCookie(sessionData);
  // Reference order and set: the cache cookie, then everything the request holds under its
  // name (`session_data` again when sent, and `session_data.0`, `.1`, …).
  clearChunkedCookie(ctx, sessionData.name, sessionData.attributes);
  if (!keepDontRemember) ctx.expireCookie(dontRememberToken);
}
