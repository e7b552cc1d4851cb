import type { Permissions } from "./options.js";

/**
 * Whether `granted` covers every action of every resource in `requested` (the reference's
 * role `authorize` with the AND connector): an unknown resource or an empty action list
 * fails, and so does an empty request.
 */
export function permissionsCover(granted: Permissions, requested: Permissions): boolean {
  const entries = Object.entries(requested);
  if (entries.length === 0) return false;
  return entries.every(([resource, actions]) => {
    const allowed = Object.hasOwn(granted, resource) ? granted[resource] : undefined;
    return Array.isArray(allowed) && actions.length > 0 && actions.every((a) => allowed.includes(a));
  });
}
