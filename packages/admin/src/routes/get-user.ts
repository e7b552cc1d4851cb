import { endpoint, fail, toOutput } from "@latchkey/core";
import * as v from "valibot";
import { adminSessionMiddleware, requirePermission } from "../guard.js";
import type { ResolvedAdminOptions } from "../options.js";

const query = v.object({ id: v.string() });

/** `GET /admin/get-user?id=` (`user:get`): the user object itself (not wrapped), or 404 `USER_NOT_FOUND`. */
export const getUser = (options: ResolvedAdminOptions) =>
  endpoint("/admin/get-user", { method: "GET", query, use: [adminSessionMiddleware] }, async (ctx) => {
    const auth = ctx.context;
    requirePermission(auth.session, { user: ["get"] }, "YOU_ARE_NOT_ALLOWED_TO_GET_USER", options);
    const user = await auth.internalAdapter.findUserById(ctx.query.id);
    if (!user) throw fail("NOT_FOUND", "USER_NOT_FOUND");
    return toOutput(auth.schema, "user", user);
  });
