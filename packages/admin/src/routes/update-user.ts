import { endpoint, fail, isEmail, toOutput } from "@latchkey/core";
import * as v from "valibot";
import { ADMIN_ERROR_CODES } from "../error-codes.js";
import { adminSessionMiddleware, requirePermission, type AdminSession } from "../guard.js";
import type { ResolvedAdminOptions } from "../options.js";
import { storedRole } from "../roles-input.js";
import { userColumns } from "../user-data.js";
import { userId } from "./inputs.js";

const body = v.object({ userId, data: v.record(v.string(), v.unknown()) });

/** Checks the parts of `data` that need their own permission; returns `data` with `role` and `email` as stored. */
async function checkedChanges(
  session: AdminSession,
  targetId: string,
  data: Record<string, unknown>,
  options: ResolvedAdminOptions,
  findByEmail: (email: string) => Promise<{ user: { id: string } } | null>,
): Promise<Record<string, unknown>> {
  const has = (key: string): boolean => Object.hasOwn(data, key);
  const out = { ...data };
  if (has("role")) {
    requirePermission(session, { user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE", options);
    out.role = storedRole(data.role, options);
  }
  if (["banned", "banReason", "banExpires"].some(has)) {
    requirePermission(session, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS", options);
    if (data.banned === true && targetId === session.user.id) {
      throw ADMIN_ERROR_CODES.fail("YOU_CANNOT_BAN_YOURSELF", "BAD_REQUEST");
    }
  }
  if (has("email") || has("emailVerified")) {
    requirePermission(session, { user: ["set-email"] }, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_EMAIL", options);
    if (has("email")) {
      const email = String(data.email).toLowerCase();
      if (!isEmail(email)) throw fail("BAD_REQUEST", "INVALID_EMAIL");
      const existing = await findByEmail(email);
      if (existing && existing.user.id !== targetId) {
        throw ADMIN_ERROR_CODES.fail("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", "BAD_REQUEST");
      }
      out.email = email;
    }
  }
  return out;
}

/**
 * `POST /admin/update-user` `{ userId, data }` (`user:update`; `role` also needs
 * `user:set-role`, ban fields `user:ban`, `email`/`emailVerified` `user:set-email`): writes the
 * user columns in `data` and answers the updated user (not wrapped). `{}` is 400
 * `NO_DATA_TO_UPDATE`, a `password` key 400 `PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER`.
 * Setting `banned: true` deletes the user's sessions after the ban is written, as ban-user does.
 */
export const adminUpdateUser = (options: ResolvedAdminOptions) =>
  endpoint("/admin/update-user", { method: "POST", body, use: [adminSessionMiddleware] }, async (ctx) => {
    const auth = ctx.context;
    const session = auth.session as AdminSession;
    requirePermission(session, { user: ["update"] }, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS", options);
    const data = ctx.body.data;
    if (Object.keys(data).length === 0) throw ADMIN_ERROR_CODES.fail("NO_DATA_TO_UPDATE", "BAD_REQUEST");
    if (Object.hasOwn(data, "password")) {
      throw ADMIN_ERROR_CODES.fail("PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER", "BAD_REQUEST");
    }
    const findByEmail = (email: string) => auth.internalAdapter.findUserByEmail(email);
    const changes = userColumns(ctx, await checkedChanges(session, ctx.body.userId, data, options, findByEmail));
    if (!(await auth.internalAdapter.findUserById(ctx.body.userId))) throw fail("NOT_FOUND", "USER_NOT_FOUND");
    const user = await auth.internalAdapter.updateUser(ctx.body.userId, changes as never, ctx);
    if (!user) throw fail("NOT_FOUND", "USER_NOT_FOUND");
    if (changes.banned === true) await auth.internalAdapter.deleteUserSessions(ctx.body.userId, ctx);
    return toOutput(auth.schema, "user", user);
  });
