import type { EndpointContext } from "../api/context.js";
import type { SessionWithUser } from "../db/internal-adapter.js";
import { clearLeftoverCookieCache, readCookieCache, setCookieCache } from "../cookies/cookie-cache.js";
import { fail } from "../errors/index.js";
import { deleteSessionCookie, setSessionCookie } from "./session-cookie.js";
import { readSessionToken } from "./session-token.js";

/** Per-call switches of the session read, the `/get-session` query flags. */
export interface ResolveSessionOptions {
  /** Read storage even when a valid cache cookie is present. */
  disableCookieCache?: boolean;
  /** Do not extend the session's expiry on this read. */
  disableRefresh?: boolean;
}

/**
 * The request's session, by the reference's `/get-session` algorithm (core.md §6.4, §7):
 * cache cookie, else storage; an expired or missing session expires the cookies; a session
 * past `updateAge` is extended and its cookies re-issued; with the cache on, a storage
 * read re-issues the cache. Sets `ctx.context.session`. Throws 401
 * `FAILED_TO_GET_SESSION` when the session vanished between its read and its refresh.
 */
export async function resolveSession(
  ctx: EndpointContext,
  options: ResolveSessionOptions = {},
): Promise<SessionWithUser | null> {
  const auth = ctx.context;
  const cache = auth.sessionConfig.cookieCache;
  const token = await readSessionToken(ctx);
  if (!cache.enabled) {
    // Cache off: the only extra work is looking for a leftover cache cookie to clear.
    clearLeftoverCookieCache(ctx);
    if (!token) return null;
  } else {
    // Reference: with the cache on and no session cookie, answer null before any storage
    // read (a cache cookie alone never authenticates: it is bound to a session cookie).
    if (!token) return null;
    if (!options.disableCookieCache) {
      const cached = await readCookieCache(ctx, token);
      if (cached) {
        auth.session = cached;
        return cached;
      }
    }
  }
  const found = await auth.internalAdapter.findSession(token);
  if (!found || found.session.expiresAt.getTime() < Date.now()) {
    deleteSessionCookie(ctx);
    if (found) await auth.internalAdapter.deleteSession(found.session.token, ctx);
    return null;
  }
  auth.session = found;
  const dontRemember = await ctx.getSignedCookie(auth.authCookies.dontRememberToken.name);
  // Reference: neither refresh nor a new cache for an unremembered session or `disableRefresh`.
  if (dontRemember || options.disableRefresh) return found;
  const { expiresIn, updateAge } = auth.sessionConfig;
  // Due once `updateAge` has passed since the last (re)issue: expiresAt - expiresIn is that moment.
  const due =
    !auth.options.session?.disableSessionRefresh &&
    found.session.expiresAt.getTime() - expiresIn * 1000 + updateAge * 1000 <= Date.now();
  if (!due) {
    await setCookieCache(ctx, found, false);
    return found;
  }
  const updated = await auth.internalAdapter.updateSession(
    found.session.token,
    { expiresAt: new Date(Date.now() + expiresIn * 1000), updatedAt: new Date() },
    ctx,
  );
  if (!updated) {
    // Deleted between the read and the refresh (a concurrent sign-out).
    deleteSessionCookie(ctx);
    throw fail("UNAUTHORIZED", "FAILED_TO_GET_SESSION");
  }
  const refreshed = { session: updated, user: found.user };
  auth.session = refreshed;
  // Re-issues the session cookie and, with the cache on, the cache with the new expiry.
  await setSessionCookie(ctx, refreshed, false, { maxAge: expiresIn });
  return refreshed;
}

/** A query flag as the reference's `z.coerce.boolean()` reads it: any non-empty value is true. */
export function queryFlag(query: unknown, name: string): boolean {
  if (typeof query !== "object" || query === null) return false;
  const value = (query as Record<string, unknown>)[name];
  return Array.isArray(value) ? value.length > 0 : !!value;
}
