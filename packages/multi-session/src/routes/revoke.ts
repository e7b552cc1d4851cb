import { deleteSessionCookie, endpoint, sessionMiddleware, setSessionCookie } from "@latchkey/core";
import * as v from "valibot";
import { MULTI_SESSION_ERROR_CODES } from "../error-codes.js";
import { byToken, expireMultiCookie, liveSession, multiCookieName, readMultiCookie, readMultiCookies } from "../multi-cookie.js";

const body = v.object({ sessionToken: v.string() });

/**
 * `POST /multi-session/revoke` `{ sessionToken }` (session required): deletes a session this
 * browser holds a multi cookie for and expires that cookie. When it was the active session,
 * the first other live session of the browser becomes active, or the session cookies are
 * cleared. `{ status: true }`; 401 `INVALID_SESSION_TOKEN` without the cookie.
 */
export const revokeDeviceSession = endpoint(
  "/multi-session/revoke",
  { method: "POST", body, requireHeaders: true, use: [sessionMiddleware] },
  async (ctx) => {
    const name = multiCookieName(ctx, ctx.body.sessionToken);
    const token = await readMultiCookie(ctx, name);
    if (!token) throw MULTI_SESSION_ERROR_CODES.fail("INVALID_SESSION_TOKEN", "UNAUTHORIZED");
    await ctx.context.internalAdapter.deleteSession(token);
    expireMultiCookie(ctx, name);
    if (ctx.context.session.session.token !== token) return { status: true };
    // The revoked session was the active one: hand over to another the browser still holds.
    for (const other of byToken(await readMultiCookies(ctx))) {
      if (other.token === token) continue;
      const next = await liveSession(ctx, other.token);
      if (!next) continue;
      await setSessionCookie(ctx, next);
      return { status: true };
    }
    deleteSessionCookie(ctx);
    return { status: true };
  },
);
