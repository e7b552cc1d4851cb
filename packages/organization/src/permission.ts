import { APIError, type Adapter } from "@latchkey/core";
import { role as makeRole, type AuthorizeRequest, type Role } from "@latchkey/access";
import type { ResolvedOrganizationOptions } from "./options.js";
import type { OrganizationRoleRow } from "./rows.js";

/** A permission request: resource → actions, all needed. */
export type Permissions = Record<string, string[]>;

/** Splits a stored role list (`"admin,member"`) into names. */
export const roleNames = (role: string): string[] => role.split(",");

/** Reads a stored `permission` JSON text; null when it is not `{ resource: string[] }`. */
export function parsePermission(text: string): Permissions | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  for (const actions of Object.values(value)) {
    if (!Array.isArray(actions) || !actions.every((a) => typeof a === "string")) return null;
  }
  return value as Permissions;
}

/**
 * The roles in force in one organization: the configured roles, with each stored
 * `organizationRole` merged in (its actions added to a same-named configured role, as the
 * reference does).
 */
export async function organizationRoles(
  adapter: Adapter,
  options: ResolvedOrganizationOptions,
  organizationId: string,
): Promise<Record<string, Role>> {
  const roles: Record<string, Role> = { ...options.roles };
  if (!options.dynamicRoles || !options.ac) return roles;
  const rows = await adapter.findMany<OrganizationRoleRow>({
    model: "organizationRole",
    where: [{ field: "organizationId", value: organizationId }],
  });
  for (const row of rows) {
    const stored = parsePermission(row.permission);
    // Reference: a corrupt stored permission is a 500 naming the role, never a silent grant.
    if (!stored) throw new APIError("INTERNAL_SERVER_ERROR", { message: `Invalid permissions for role ${row.role}` });
    const merged: Record<string, string[]> = {};
    for (const [resource, actions] of Object.entries(roles[row.role]?.statements ?? {})) merged[resource] = [...actions];
    for (const [resource, actions] of Object.entries(stored)) {
      merged[resource] = [...new Set([...(merged[resource] ?? []), ...actions])];
    }
    roles[row.role] = makeRole(merged);
  }
  return roles;
}

/**
 * Whether a member holding `role` (a comma-separated list) may do `permissions`: any one of
 * its roles granting all of it is enough. With `allowCreatorAllPermissions` the creator role
 * passes everything.
 */
export function roleAllows(
  roles: Record<string, Role>,
  options: ResolvedOrganizationOptions,
  role: string,
  permissions: Permissions | undefined,
  allowCreatorAllPermissions = false,
): boolean {
  if (!permissions) return false;
  const names = roleNames(role);
  if (allowCreatorAllPermissions && names.includes(options.creatorRole)) return true;
  return names.some((name) => Object.hasOwn(roles, name) && roles[name]!.authorize(permissions as AuthorizeRequest).success);
}

/** `roleAllows` against the roles in force in `organizationId`. */
export async function hasPermission(
  adapter: Adapter,
  options: ResolvedOrganizationOptions,
  input: { role: string; organizationId: string; permissions: Permissions | undefined; allowCreatorAllPermissions?: boolean },
): Promise<boolean> {
  const roles = await organizationRoles(adapter, options, input.organizationId);
  return roleAllows(roles, options, input.role, input.permissions, input.allowCreatorAllPermissions);
}
