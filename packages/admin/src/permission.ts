import type { AuthorizeRequest } from "@latchkey/access";
import type { ResolvedAdminOptions } from "./options.js";

/** What a permission check needs to know of the user: its id and its stored role(s). */
export interface PermissionSubject {
  id?: string | undefined;
  role?: string | null | undefined;
}

/** The roles of a stored `role` value: comma-separated, the default role when empty. */
export const rolesOf = (role: string | null | undefined, options: ResolvedAdminOptions): string[] =>
  (role || options.defaultRole).split(",");

/**
 * Whether `subject` may do what `permissions` asks (the reference's rule): a user listed in
 * `adminUserIds` always may; otherwise any one of its roles authorizing the whole request is
 * enough. A role name that is not configured grants nothing (an own-property lookup, so names
 * such as `constructor` never reach the prototype).
 */
export function hasPermission(
  subject: PermissionSubject,
  permissions: AuthorizeRequest | undefined,
  options: ResolvedAdminOptions,
): boolean {
  if (subject.id && options.adminUserIds.includes(subject.id)) return true;
  if (!permissions) return false;
  for (const name of rolesOf(subject.role, options)) {
    const role = Object.hasOwn(options.roles, name) ? options.roles[name] : undefined;
    if (role?.authorize(permissions).success) return true;
  }
  return false;
}

/** Whether the target counts as an administrator: one of its roles is an admin role, or it is in `adminUserIds`. */
export function isAdminUser(user: PermissionSubject, options: ResolvedAdminOptions): boolean {
  if (user.id && options.adminUserIds.includes(user.id)) return true;
  return rolesOf(user.role, options).some((r) => options.adminRoles.includes(r));
}
