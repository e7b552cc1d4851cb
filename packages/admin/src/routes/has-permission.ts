import { APIError, endpoint, getSessionFromRequest } from "@latchkey/core";
import * as v from "valibot";
import { isBareServerCall } from "../guard.js";
import type { ResolvedAdminOptions } from "../options.js";
import { hasPermission, type PermissionSubject } from "../permission.js";
import type { UserWithRole } from "../schema.js";

const request = v.record(v.string(), v.array(v.string()));

const body = v.object({
  userId: v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(String))),
  role: v.optional(v.string()),
  permission: v.optional(request),
  permissions: v.optional(request),
});

/** The reference's message-only 400s of this route (never "no permission(s) were passed": the schema refuses that first over HTTP). */
const refuse = (message: string): APIError => new APIError("BAD_REQUEST", { message });

/**
 * `POST /admin/has-permission` `{ permissions, userId?, role? }`: `{ error: null, success }`,
 * whether the caller's roles grant every action asked. With a session the answer is about the
 * caller (the body's `userId`/`role` are ignored, so nobody probes another user's rights);
 * server code without headers asks about a `role`, or about the stored user `userId`.
 * The legacy singular `permission` is read when `permissions` is absent: the reference's schema
 * admits it and then refuses it (DIVERGENCES.md row 77).
 */
export const userHasPermission = (options: ResolvedAdminOptions) =>
  endpoint("/admin/has-permission", { method: "POST", body }, async (ctx) => {
    // Reference schema: exactly one of `permission` and `permissions` (zod `xor`).
    const asked = ctx.body.permissions ?? ctx.body.permission;
    if (!asked || (ctx.body.permission && ctx.body.permissions)) {
      throw new APIError("BAD_REQUEST", { code: "VALIDATION_ERROR", message: "[body] Invalid input" });
    }
    ctx.context.session = null;
    const session = await getSessionFromRequest(ctx, { disableCookieCache: true });
    if (!session && !isBareServerCall(ctx)) throw new APIError("UNAUTHORIZED");
    const { userId, role } = ctx.body;
    if (!session && !userId && !role) throw refuse("user id or role is required");
    let subject: PermissionSubject | null = session ? (session.user as UserWithRole) : null;
    if (!subject && role) subject = { id: userId ?? "", role };
    if (!subject && userId) subject = (await ctx.context.internalAdapter.findUserById(userId)) as UserWithRole | null;
    if (!subject) throw refuse("user not found");
    return { error: null, success: hasPermission({ id: subject.id, role: subject.role }, asked, options) };
  });
