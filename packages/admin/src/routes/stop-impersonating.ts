import { APIError, endpoint, getSessionFromRequest, setSessionCookie, toOutput, type EndpointContext } from "@latchkey/core";
import { adminCookie, readAdminCookie } from "../admin-cookie.js";
import type { SessionWithImpersonatedBy } from "../schema.js";

/** The reference's message-only answers of this route. */
const refuse = (status: "BAD_REQUEST" | "UNAUTHORIZED", message: string): APIError => new APIError(status, { message });

/**
 * Ends the impersonation session exactly once. Where sessions have database rows the row's
 * `impersonatedBy` is cleared by a guarded update first: of two requests racing with the same
 * cookies (or a replay of one), only one matches the guard. The session is then deleted
 * through the internal adapter (both stores, delete hooks).
 */
async function endImpersonation(ctx: EndpointContext, session: SessionWithImpersonatedBy): Promise<boolean> {
  const auth = ctx.context;
  const sessionsInDatabase = !auth.secondaryStorage || !!auth.options.session?.storeSessionInDatabase;
  if (sessionsInDatabase) {
    const claimed = await auth.internalAdapter.incrementOne({
      model: "session",
      where: [
        { field: "token", value: session.token },
        { field: "impersonatedBy", value: String(session.impersonatedBy) },
      ],
      increment: {},
      set: { impersonatedBy: null },
    });
    if (!claimed) return false;
  }
  await auth.internalAdapter.deleteSession(session.token, ctx);
  return true;
}

/**
 * `POST /admin/stop-impersonating` (the impersonation session's cookies): deletes the
 * impersonation session, makes the administrator's session (named by the signed
 * `admin_session` cookie, and belonging to the administrator who started it) the browser's
 * session again, and expires `admin_session`. `{ session, user }` of the administrator.
 *
 * The reference answers 500 when the administrator, the cookie or their session is missing;
 * those are the client's conditions, so they are 400 here with the same messages
 * (DIVERGENCES.md row 76). The session is read from storage, never from the cache cookie.
 */
export const stopImpersonating = () =>
  endpoint("/admin/stop-impersonating", { method: "POST", requireHeaders: true }, async (ctx) => {
    const auth = ctx.context;
    auth.session = null;
    const current = await getSessionFromRequest(ctx, { disableCookieCache: true });
    if (!current) throw new APIError("UNAUTHORIZED");
    const session = current.session as SessionWithImpersonatedBy;
    if (!session.impersonatedBy) throw refuse("BAD_REQUEST", "You are not impersonating anyone");
    const admin = await auth.internalAdapter.findUserById(session.impersonatedBy);
    if (!admin) throw refuse("BAD_REQUEST", "Failed to find user");
    const cookie = await readAdminCookie(ctx);
    const adminSession = cookie ? await auth.internalAdapter.findSession(cookie.token) : null;
    if (!adminSession || adminSession.session.userId !== admin.id || adminSession.session.expiresAt.getTime() <= Date.now()) {
      throw refuse("BAD_REQUEST", "Failed to find admin session");
    }
    if (!(await endImpersonation(ctx, session))) throw new APIError("UNAUTHORIZED");
    await setSessionCookie(ctx, adminSession, cookie!.dontRemember);
    ctx.expireCookie(adminCookie(ctx));
    return {
      session: toOutput(auth.schema, "session", adminSession.session),
      user: toOutput(auth.schema, "user", adminSession.user),
    };
  });
