import { endpoint, fail, toOutput } from "@latchkey/core";
import * as v from "valibot";
import { adminSessionMiddleware, requirePermission } from "../guard.js";
import type { ResolvedAdminOptions } from "../options.js";
import { storedRole } from "../roles-input.js";
import { roleValue, userId } from "./inputs.js";

const body = v.object({ userId, role: roleValue });

/**
 * `POST /admin/set-role` `{ userId, role }` (`user:set-role`): stores the role, or the roles
 * joined by commas, and answers `{ user }`. With `roles` configured each name must be one.
 */
export const setRole = (options: ResolvedAdminOptions) =>
  endpoint(
    "/admin/set-role",
    { method: "POST", body, requireHeaders: true, use: [adminSessionMiddleware] },
    async (ctx) => {
      const auth = ctx.context;
      requirePermission(auth.session, { user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE", options);
      const role = storedRole(ctx.body.role, options);
      if (!(await auth.internalAdapter.findUserById(ctx.body.userId))) throw fail("NOT_FOUND", "USER_NOT_FOUND");
      const user = await auth.internalAdapter.updateUser(ctx.body.userId, { role } as never, ctx);
      if (!user) throw fail("NOT_FOUND", "USER_NOT_FOUND");
      return { user: toOutput(auth.schema, "user", user) };
    },
  );
