import { endpoint, fail } from "@latchkey/core";
import * as v from "valibot";
import { adminSessionMiddleware, requirePermission } from "../guard.js";
import type { ResolvedAdminOptions } from "../options.js";
import { assertPasswordLength } from "../password-length.js";
import { userId } from "./inputs.js";

const body = v.object({
  // The reference's own messages for empty values.
  newPassword: v.pipe(v.string(), v.check((s) => s.length > 0, "newPassword cannot be empty")),
  userId: v.pipe(userId, v.check((s) => s.length > 0, "userId cannot be empty")),
});

/**
 * `POST /admin/set-user-password` `{ newPassword, userId }` (`user:set-password`): hashes the
 * password into the user's credential account, creating that account when the user has none;
 * `{ status: true }`. The length limits of `emailAndPassword` apply (400 `PASSWORD_TOO_SHORT` /
 * `PASSWORD_TOO_LONG`).
 */
export const setUserPassword = (options: ResolvedAdminOptions) =>
  endpoint("/admin/set-user-password", { method: "POST", body, use: [adminSessionMiddleware] }, async (ctx) => {
    const auth = ctx.context;
    requirePermission(auth.session, { user: ["set-password"] }, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD", options);
    const { newPassword, userId: id } = ctx.body;
    assertPasswordLength(ctx, newPassword);
    const user = await auth.internalAdapter.findUserById(id);
    if (!user) throw fail("NOT_FOUND", "USER_NOT_FOUND");
    const hash = await auth.password.hash(newPassword);
    if (await auth.internalAdapter.findCredentialAccount(id)) await auth.internalAdapter.updatePassword(id, hash, ctx);
    else await auth.internalAdapter.linkAccount({ userId: id, providerId: "credential", accountId: user.id, password: hash }, ctx);
    return { status: true };
  });
