import { APIError, endpoint, sessionMiddleware, type Adapter } from "@latchkey/core";
import * as v from "valibot";
import { countCreators, findMember, findOrganization } from "../member-store.js";
import { withOrganizationLock } from "../org-lock.js";
import type { ResolvedOrganizationOptions } from "../options.js";
import { hasPermission } from "../permission.js";
import { activeOrganizationId, fail, messageError } from "../route-kit.js";
import type { MemberRow, OrganizationRoleRow } from "../rows.js";

/**
 * The role names of `names` that are neither configured roles nor (with dynamic access
 * control) roles stored for the organization.
 */
export async function unknownRoles(
  db: Adapter,
  options: ResolvedOrganizationOptions,
  organizationId: string,
  names: string[],
): Promise<string[]> {
  const unknown = names.filter((name) => !options.staticRoleNames.has(name));
  if (!unknown.length || !options.dynamicRoles) return unknown;
  const stored = await db.findMany<OrganizationRoleRow>({
    model: "organizationRole",
    where: [
      { field: "organizationId", value: organizationId },
      { field: "role", value: unknown, operator: "in" },
    ],
  });
  const found = new Set(stored.map((r) => r.role));
  return unknown.filter((name) => !found.has(name));
}

/** The 400 the reference gives for unknown role names: code `ROLE_NOT_FOUND`, message naming them. */
export const roleNotFound = (names: string[]): APIError =>
  new APIError("BAD_REQUEST", { code: "ROLE_NOT_FOUND", message: `ROLE_NOT_FOUND: ${names.join(", ")}` });

/**
 * `POST /organization/update-member-role` `{ role, memberId, organizationId? }` (needs
 * `member:update`; the creator role passes): only a creator may touch a creator or hand the
 * creator role out, and the last creator cannot give it up. Decided under the organization
 * lock: two owners demoting each other at once are taken one after the other, and the second
 * is refused because its author is no longer an owner.
 */
export function updateMemberRole(options: ResolvedOrganizationOptions) {
  const body = v.object({
    role: v.union([v.string(), v.array(v.string())]),
    memberId: v.string(),
    organizationId: v.optional(v.string()),
  });
  return endpoint(
    "/organization/update-member-role",
    { method: "POST", body, requireHeaders: true, use: [sessionMiddleware] },
    async (ctx) => {
      const { session, adapter, internalAdapter } = ctx.context;
      if (!ctx.body.role || (Array.isArray(ctx.body.role) && !ctx.body.role.length)) throw new APIError("BAD_REQUEST");
      const organizationId = ctx.body.organizationId || activeOrganizationId(session);
      if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
      const roles = [ctx.body.role]
        .flat()
        .flatMap((r) => r.split(","))
        .map((r) => r.trim())
        .filter(Boolean);
      if (!roles.length) throw new APIError("BAD_REQUEST");
      const creator = options.creatorRole;
      const outcome = await withOrganizationLock(ctx, organizationId, async () => {
        const member = await findMember(adapter, session.user.id, organizationId);
        if (!member) throw fail("MEMBER_NOT_FOUND", "BAD_REQUEST");
        const target =
          member.id === ctx.body.memberId
            ? member
            : await adapter.findOne<MemberRow>({ model: "member", where: [{ field: "id", value: ctx.body.memberId }] });
        if (!target) throw fail("MEMBER_NOT_FOUND", "BAD_REQUEST");
        if (target.organizationId !== organizationId) throw fail("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER", "FORBIDDEN");
        const targetIsCreator = target.role.split(",").includes(creator);
        const callerIsCreator = member.role.split(",").includes(creator);
        const grantsCreator = roles.includes(creator);
        if ((targetIsCreator || grantsCreator) && !callerIsCreator) throw fail("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER", "FORBIDDEN");
        if (targetIsCreator && !grantsCreator && (await countCreators(adapter, options, organizationId)) <= 1) {
          throw fail("YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER", "BAD_REQUEST");
        }
        const may = await hasPermission(adapter, options, {
          role: member.role,
          organizationId,
          permissions: { member: ["update"] },
          allowCreatorAllPermissions: true,
        });
        if (!may) throw fail("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER", "FORBIDDEN");
        const unknown = await unknownRoles(adapter, options, organizationId, roles);
        if (unknown.length) throw roleNotFound(unknown);
        const organization = await findOrganization(adapter, organizationId);
        if (!organization) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
        const user = await internalAdapter.findUserById(target.userId);
        if (!user) throw messageError("BAD_REQUEST", "User not found");
        let newRole = roles.join(",");
        const hooks = options.organizationHooks;
        if (hooks?.beforeUpdateMemberRole) {
          const answer = await hooks.beforeUpdateMemberRole({ member: target, newRole, user, organization });
          if (answer && typeof answer === "object" && "data" in answer) newRole = answer.data.role || newRole;
        }
        const updated = await internalAdapter.update<MemberRow>("member", [{ field: "id", value: ctx.body.memberId }], { role: newRole });
        if (!updated) throw fail("MEMBER_NOT_FOUND", "BAD_REQUEST");
        return { member: updated, previousRole: target.role, user, organization };
      });
      await options.organizationHooks?.afterUpdateMemberRole?.(outcome);
      return outcome.member;
    },
  );
}
