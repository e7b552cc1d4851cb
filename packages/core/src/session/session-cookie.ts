import type { EndpointContext } from "../api/context.js";
import type { SessionWithUser } from "../db/internal-adapter.js";
import type { CookieAttributes } from "../options.js";

/**
 * Writes the signed session cookie for a new or refreshed session. A session the user chose
 * not to remember gets a browser-session cookie (no Max-Age) and the signed `dont_remember`
 * marker, which later refreshes honour.
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
  ctx.context.newSession = data;
}

/** Expires the session cookie, the cache cookie and its chunks, and (unless asked not to) `dont_remember`. */
export function deleteSessionCookie(ctx: EndpointContext, keepDontRemember = false): void {
  const { sessionToken, sessionData, dontRememberToken } = ctx.context.authCookies;
  ctx.expireCookie(sessionToken);
  ctx.expireCookie(sessionData);
  // Chunked cache cookies (`session_data.0`, `.1`, …) the browser still holds.
  for (let i = 0; ctx.getCookie(`${sessionData.name}.${i}`) !== undefined; i++) {
    ctx.expireCookie({ name: `${sessionData.name}.${i}`, attributes: sessionData.attributes });
  }
  if (!keepDontRemember) ctx.expireCookie(dontRememberToken);
}
