import {
  deleteSessionCookie,
  endpoint,
  fail,
  getClientIP,
  setSessionCookie,
  toOutput,
} from "@latchkey/core";
import { setAdminCookie } from "../admin-cookie.js";
import { ADMIN_ERROR_CODES } from "../error-codes.js";
import { adminSessionMiddleware, requirePermission } from "../guard.js";
import type { ResolvedAdminOptions } from "../options.js";
import { hasPermission, isAdminUser } from "../permission.js";
import type { UserWithRole } from "../schema.js";
import { userIdBody } from "./inputs.js";

/**
 * `POST /admin/impersonate-user` `{ userId }` (`user:impersonate`): opens a session as the
 * user, marked `impersonatedBy` = the administrator and lasting `impersonationSessionDuration`
 * seconds; the browser's session cookie becomes that session (a browser-session cookie, as
 * "don't remember me") and the administrator's own token goes into the signed `admin_session`
 * cookie, to be restored by stop-impersonating. `{ session, user }`.
 *
 * A target with an admin role (or in `adminUserIds`) also needs `user:impersonate-admins`, or
 * `allowImpersonatingAdmins`: 403 `YOU_CANNOT_IMPERSONATE_ADMINS` otherwise. The caller's
 * session is read from storage (never the cache cookie), so a revoked session cannot start one.
 */
export const impersonateUser = (options: ResolvedAdminOptions) =>
  endpoint(
    "/admin/impersonate-user",
    { method: "POST", body: userIdBody, use: [adminSessionMiddleware] },
    async (ctx) => {
      const auth = ctx.context;
      const admin = auth.session;
      requirePermission(admin, { user: ["impersonate"] }, "YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS", options);
      const found = await auth.internalAdapter.findUserById(ctx.body.userId);
      const target = found as UserWithRole | null;
      if (!found || !target) throw fail("NOT_FOUND", "USER_NOT_FOUND");
      if (isAdminUser(target, options)) {
        const caller = admin.user as UserWithRole;
        const allowed =
          options.allowImpersonatingAdmins ||
          hasPermission({ id: caller.id, role: caller.role }, { user: ["impersonate-admins"] }, options);
        if (!allowed) throw ADMIN_ERROR_CODES.fail("YOU_CANNOT_IMPERSONATE_ADMINS", "FORBIDDEN");
      }
      // Seconds, as the option says (reference `getDate(duration, "sec")`).
      const expiresAt = new Date(Date.now() + options.impersonationSessionDuration * 1000);
      const client = { ipAddress: getClientIP(ctx.headers, auth.options), userAgent: ctx.headers.get("user-agent") };
      const session = await auth.internalAdapter.createSession(target.id, true, client, ctx, {
        impersonatedBy: admin.user.id,
        expiresAt,
      } as never);
      if (!session) throw ADMIN_ERROR_CODES.fail("FAILED_TO_CREATE_USER", "INTERNAL_SERVER_ERROR");
      deleteSessionCookie(ctx);
      await setAdminCookie(ctx, admin.session.token);
      await setSessionCookie(ctx, { session, user: found }, true);
      return { session: toOutput(auth.schema, "session", session), user: toOutput(auth.schema, "user", target) };
    },
  );
