import { endpoint, fail } from "@latchkey/core";
import { ADMIN_ERROR_CODES } from "../error-codes.js";
import { adminSessionMiddleware, requirePermission } from "../guard.js";
import type { ResolvedAdminOptions } from "../options.js";
import { userIdBody } from "./inputs.js";

/**
 * `POST /admin/remove-user` `{ userId }` (`user:delete`): deletes the user with its sessions
 * and accounts; `{ success: true }`. Removing oneself is 400 `YOU_CANNOT_REMOVE_YOURSELF`.
 */
export const removeUser = (options: ResolvedAdminOptions) =>
  endpoint("/admin/remove-user", { method: "POST", body: userIdBody, use: [adminSessionMiddleware] }, async (ctx) => {
    const auth = ctx.context;
    requirePermission(auth.session, { user: ["delete"] }, "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS", options);
    if (ctx.body.userId === auth.session.user.id) throw ADMIN_ERROR_CODES.fail("YOU_CANNOT_REMOVE_YOURSELF", "BAD_REQUEST");
    if (!(await auth.internalAdapter.findUserById(ctx.body.userId))) throw fail("NOT_FOUND", "USER_NOT_FOUND");
    await auth.internalAdapter.deleteUserSessions(ctx.body.userId, ctx);
    await auth.internalAdapter.deleteUser(ctx.body.userId, ctx);
    return { success: true };
  });
