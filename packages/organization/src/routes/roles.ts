import { APIError, endpoint, sessionMiddleware, type EndpointContext, type SessionWithUser, type Where } from "@latchkey/core";
import * as v from "valibot";
import { additionalFieldEntries, pickAdditional } from "../additional-fields.js";
import { findMember } from "../member-store.js";
import { withOrganizationLock } from "../org-lock.js";
import type { ResolvedOrganizationOptions } from "../options.js";
import { hasPermission, parsePermission, roleAllows, organizationRoles, type Permissions } from "../permission.js";
import { activeOrganizationId, fail } from "../route-kit.js";
import type { MemberRow, OrganizationRoleRow } from "../rows.js";

type Code = Parameters<typeof fail>[0];
const permissionMap = v.record(v.string(), v.array(v.string()));
const nameOrId = { roleName: v.optional(v.pipe(v.string(), v.minLength(1))), roleId: v.optional(v.pipe(v.string(), v.minLength(1))) };
const oneOf = <T extends { roleName?: string | undefined; roleId?: string | undefined }>(x: T): boolean => !!(x.roleName || x.roleId);

/** A stored role as answered: `permission` parsed from its JSON text. */
const roleOutput = (row: OrganizationRoleRow) => ({ ...row, permission: parsePermission(row.permission) ?? {} });

/** The caller's member row in the organization, with the `ac` permission checked. */
async function roleActor(
  ctx: EndpointContext,
  options: ResolvedOrganizationOptions,
  session: SessionWithUser,
  organizationId: string,
  action: "create" | "read" | "update" | "delete",
  denied: Code,
): Promise<MemberRow> {
  const member = await findMember(ctx.context.adapter, session.user.id, organizationId);
  if (!member) throw fail("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION", "FORBIDDEN");
  if (!(await hasPermission(ctx.context.adapter, options, { role: member.role, organizationId, permissions: { ac: [action] } }))) {
    throw fail(denied, "FORBIDDEN");
  }
  return member;
}

/** Refuses a permission map naming resources the access control does not declare, or that the caller does not hold itself. */
async function checkGrant(
  ctx: EndpointContext,
  options: ResolvedOrganizationOptions,
  member: MemberRow,
  organizationId: string,
  permission: Permissions,
  denied: Code,
): Promise<void> {
  const statements = options.ac!.statements;
  if (Object.keys(permission).some((resource) => !Object.hasOwn(statements, resource))) throw fail("INVALID_RESOURCE", "BAD_REQUEST");
  const roles = await organizationRoles(ctx.context.adapter, options, organizationId);
  const missing = Object.entries(permission).flatMap(([resource, actions]) =>
    actions.filter((action) => !roleAllows(roles, options, member.role, { [resource]: [action] })).map((action) => `${resource}:${action}`),
  );
  // Nobody grants what they do not hold; the body names what is missing, as the reference does.
  if (missing.length) {
    throw new APIError("FORBIDDEN", { code: denied, message: ctx.context.errorCodes[denied] ?? denied, missingPermissions: missing });
  }
}

/** Refuses a name taken by a configured role or a stored role of the organization. */
async function checkNameFree(ctx: EndpointContext, options: ResolvedOrganizationOptions, organizationId: string, role: string): Promise<void> {
  const predefined = options.roles ? Object.keys(options.roles) : ["owner", "admin", "member"];
  if (predefined.includes(role)) throw fail("ROLE_NAME_IS_ALREADY_TAKEN", "BAD_REQUEST");
  const taken = await ctx.context.adapter.findOne({
    model: "organizationRole",
    where: [{ field: "organizationId", value: organizationId }, { field: "role", value: role }],
  });
  if (taken) throw fail("ROLE_NAME_IS_ALREADY_TAKEN", "BAD_REQUEST");
}

const selector = (organizationId: string, x: { roleName?: string | undefined; roleId?: string | undefined }): Where[] => [
  { field: "organizationId", value: organizationId },
  x.roleName ? { field: "role", value: x.roleName } : { field: "id", value: x.roleId! },
];

/** The dynamic access control routes (`dynamicAccessControl.enabled`): roles stored per organization. */
export function roleEndpoints(options: ResolvedOrganizationOptions) {
  const extra = options.schema?.organizationRole?.additionalFields;
  const createRole = endpoint(
    "/organization/create-role",
    {
      method: "POST",
      body: v.object({ organizationId: v.optional(v.string()), role: v.string(), permission: permissionMap, additionalFields: v.optional(v.object(additionalFieldEntries(extra))) }),
      requireHeaders: true,
      use: [sessionMiddleware],
    },
    async (ctx) => {
      const { session } = ctx.context;
      const organizationId = ctx.body.organizationId ?? activeOrganizationId(session);
      if (!organizationId) throw fail("YOU_MUST_BE_IN_AN_ORGANIZATION_TO_CREATE_A_ROLE", "BAD_REQUEST");
      const role = ctx.body.role.toLowerCase();
      const { permission } = ctx.body;
      const row = await withOrganizationLock(ctx, organizationId, async () => {
        await checkNameFree(ctx, options, organizationId, role);
        const member = await roleActor(ctx, options, session, organizationId, "create", "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE");
        const configured = options.dynamicAccessControl?.maximumRolesPerOrganization;
        const maximum = typeof configured === "function" ? await configured(organizationId) : (configured ?? Infinity);
        const count = await ctx.context.adapter.count({ model: "organizationRole", where: [{ field: "organizationId", value: organizationId }] });
        if (count >= maximum) throw fail("TOO_MANY_ROLES", "BAD_REQUEST");
        await checkGrant(ctx, options, member, organizationId, permission, "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE");
        return (await ctx.context.internalAdapter.create<OrganizationRoleRow>("organizationRole", {
          createdAt: new Date(),
          organizationId,
          permission: JSON.stringify(permission),
          role,
          ...pickAdditional(ctx.body.additionalFields ?? {}, extra),
        }))!;
      });
      return { success: true, roleData: { ...row, permission }, statements: permission };
    },
  );

  const deleteRole = endpoint(
    "/organization/delete-role",
    { method: "POST", body: v.pipe(v.object({ organizationId: v.optional(v.string()), ...nameOrId }), v.check(oneOf, "Give roleName or roleId")), requireHeaders: true, use: [sessionMiddleware] },
    async (ctx) => {
      const { session, adapter } = ctx.context;
      const organizationId = ctx.body.organizationId ?? activeOrganizationId(session);
      if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
      await withOrganizationLock(ctx, organizationId, async () => {
        await roleActor(ctx, options, session, organizationId, "delete", "YOU_ARE_NOT_ALLOWED_TO_DELETE_A_ROLE");
        const predefined = options.roles ? Object.keys(options.roles) : ["owner", "admin", "member"];
        if (ctx.body.roleName && predefined.includes(ctx.body.roleName)) throw fail("CANNOT_DELETE_A_PRE_DEFINED_ROLE", "BAD_REQUEST");
        const where = selector(organizationId, ctx.body);
        const row = await adapter.findOne<OrganizationRoleRow>({ model: "organizationRole", where });
        if (!row) throw fail("ROLE_NOT_FOUND", "BAD_REQUEST");
        const holders = await adapter.findMany<MemberRow>({
          model: "member",
          where: [{ field: "organizationId", value: organizationId }, { field: "role", value: row.role, operator: "contains" }],
        });
        if (holders.some((m) => m.role.split(",").map((r) => r.trim()).includes(row.role))) throw fail("ROLE_IS_ASSIGNED_TO_MEMBERS", "BAD_REQUEST");
        await adapter.delete({ model: "organizationRole", where: [{ field: "id", value: row.id }] });
      });
      return { success: true };
    },
  );

  const listOrgRoles = endpoint(
    "/organization/list-roles",
    { method: "GET", query: v.optional(v.object({ organizationId: v.optional(v.string()) })), requireHeaders: true, use: [sessionMiddleware] },
    async (ctx) => {
      const { session, adapter } = ctx.context;
      const organizationId = ctx.query?.organizationId ?? activeOrganizationId(session);
      if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
      await roleActor(ctx, options, session, organizationId, "read", "YOU_ARE_NOT_ALLOWED_TO_LIST_A_ROLE");
      const rows = await adapter.findMany<OrganizationRoleRow>({ model: "organizationRole", where: [{ field: "organizationId", value: organizationId }] });
      return rows.map(roleOutput);
    },
  );

  const getOrgRole = endpoint(
    "/organization/get-role",
    { method: "GET", query: v.optional(v.object({ organizationId: v.optional(v.string()), ...nameOrId })), requireHeaders: true, use: [sessionMiddleware] },
    async (ctx) => {
      const { session, adapter } = ctx.context;
      const organizationId = ctx.query?.organizationId ?? activeOrganizationId(session);
      if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
      await roleActor(ctx, options, session, organizationId, "read", "YOU_ARE_NOT_ALLOWED_TO_READ_A_ROLE");
      if (!ctx.query || !oneOf(ctx.query)) throw fail("ROLE_NOT_FOUND", "BAD_REQUEST");
      const row = await adapter.findOne<OrganizationRoleRow>({ model: "organizationRole", where: selector(organizationId, ctx.query) });
      if (!row) throw fail("ROLE_NOT_FOUND", "BAD_REQUEST");
      return roleOutput(row);
    },
  );

  const updateOrgRole = endpoint(
    "/organization/update-role",
    {
      method: "POST",
      body: v.pipe(
        v.object({
          organizationId: v.optional(v.string()),
          ...nameOrId,
          data: v.object({ permission: v.optional(permissionMap), roleName: v.optional(v.string()), ...additionalFieldEntries(extra, true) }),
        }),
        v.check(oneOf, "Give roleName or roleId"),
      ),
      requireHeaders: true,
      use: [sessionMiddleware],
    },
    async (ctx) => {
      const { session, adapter } = ctx.context;
      const organizationId = ctx.body.organizationId ?? activeOrganizationId(session);
      if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
      const roleData = await withOrganizationLock(ctx, organizationId, async () => {
        const member = await roleActor(ctx, options, session, organizationId, "update", "YOU_ARE_NOT_ALLOWED_TO_UPDATE_A_ROLE");
        const row = await adapter.findOne<OrganizationRoleRow>({ model: "organizationRole", where: selector(organizationId, ctx.body) });
        if (!row) throw fail("ROLE_NOT_FOUND", "BAD_REQUEST");
        const update: Record<string, unknown> = pickAdditional(ctx.body.data, extra);
        const { permission, roleName } = ctx.body.data;
        if (permission) {
          await checkGrant(ctx, options, member, organizationId, permission, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_A_ROLE");
          update.permission = JSON.stringify(permission);
        }
        if (roleName) {
          const name = roleName.toLowerCase();
          await checkNameFree(ctx, options, organizationId, name);
          update.role = name;
        }
        if (Object.keys(update).length) await ctx.context.internalAdapter.update("organizationRole", [{ field: "id", value: row.id }], update);
        return { ...row, ...update, permission: permission ?? parsePermission(row.permission) ?? null };
      });
      return { success: true, roleData };
    },
  );

  return { createOrgRole: createRole, deleteOrgRole: deleteRole, listOrgRoles, getOrgRole, updateOrgRole };
}
