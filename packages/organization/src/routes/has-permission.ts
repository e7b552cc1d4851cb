import { endpoint, sessionMiddleware } from "@latchkey/core";
import * as v from "valibot";
import { findMember } from "../member-store.js";
import type { ResolvedOrganizationOptions } from "../options.js";
import { hasPermission } from "../permission.js";
import { activeOrganizationId, fail } from "../route-kit.js";

const permissionMap = v.record(v.string(), v.array(v.string()));

/** Exactly one of `permissions` and its deprecated spelling `permission` (the reference's xor). */
const body = v.pipe(
  v.object({ organizationId: v.optional(v.string()), permissions: v.optional(permissionMap), permission: v.optional(permissionMap) }),
  v.check((b) => (b.permissions === undefined) !== (b.permission === undefined), "Give exactly one of permissions and permission"),
);

/**
 * `POST /organization/has-permission` `{ permissions, organizationId? }`: `{ error: null, success }`,
 * whether the caller's roles in the (active) organization grant all of it. Two indexed reads:
 * the member row, and the organization's stored roles when dynamic access control is on.
 */
export function hasPermissionRoute(options: ResolvedOrganizationOptions) {
  return endpoint("/organization/has-permission", { method: "POST", body, requireHeaders: true, use: [sessionMiddleware] }, async (ctx) => {
    const { session, adapter } = ctx.context;
    const organizationId = ctx.body.organizationId || activeOrganizationId(session);
    if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
    const member = await findMember(adapter, session.user.id, organizationId);
    // Reference: 401 here (the caller is signed in but not a member).
    if (!member) throw fail("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", "UNAUTHORIZED");
    // Reference: only `permissions` is checked; the deprecated `permission` alone never passes.
    const success = await hasPermission(adapter, options, { role: member.role, organizationId, permissions: ctx.body.permissions });
    return { error: null, success };
  });
}
