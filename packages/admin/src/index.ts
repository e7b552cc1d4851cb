import type { LatchkeyPlugin } from "@latchkey/core";
import { adminDatabaseHooks } from "./ban-gate.js";
import { ADMIN_ERROR_CODES } from "./error-codes.js";
import { hideImpersonationSessions } from "./list-sessions-hook.js";
import { resolveAdminOptions, type AdminOptions, type ResolvedAdminOptions } from "./options.js";
import { banUser, unbanUser } from "./routes/bans.js";
import { createUser } from "./routes/create-user.js";
import { getUser } from "./routes/get-user.js";
import { userHasPermission } from "./routes/has-permission.js";
import { impersonateUser } from "./routes/impersonate.js";
import { listUsers } from "./routes/list-users.js";
import { removeUser } from "./routes/remove-user.js";
import { setRole } from "./routes/set-role.js";
import { setUserPassword } from "./routes/set-user-password.js";
import { stopImpersonating } from "./routes/stop-impersonating.js";
import { adminUpdateUser } from "./routes/update-user.js";
import { listUserSessions, revokeUserSession, revokeUserSessions } from "./routes/user-sessions.js";
import { adminSchemaFor } from "./schema-options.js";

export { ADMIN_ERROR_CODES } from "./error-codes.js";
export type { AdminOptions, AdminSchemaOptions } from "./options.js";
export type { SessionWithImpersonatedBy, UserWithRole } from "./schema.js";
export { hasPermission } from "./permission.js";

/** The endpoints, under the reference's `auth.api` names. */
function adminEndpoints(options: ResolvedAdminOptions) {
  return {
    setRole: setRole(options),
    getUser: getUser(options),
    createUser: createUser(options),
    adminUpdateUser: adminUpdateUser(options),
    listUsers: listUsers(options),
    listUserSessions: listUserSessions(options),
    unbanUser: unbanUser(options),
    banUser: banUser(options),
    impersonateUser: impersonateUser(options),
    stopImpersonating: stopImpersonating(),
    revokeUserSession: revokeUserSession(options),
    revokeUserSessions: revokeUserSessions(options),
    removeUser: removeUser(options),
    setUserPassword: setUserPassword(options),
    userHasPermission: userHasPermission(options),
  };
}

/** The plugin object `admin()` returns. */
export interface AdminPlugin extends LatchkeyPlugin<"admin", ReturnType<typeof adminEndpoints>> {
  id: "admin";
  options: ResolvedAdminOptions;
}

/**
 * User administration: create, list and search users, set roles, ban and unban (a ban ends the
 * user's sessions and refuses their sign-ins), impersonate a user and stop, manage sessions
 * and passwords, remove users; permissions come from `@latchkey/access` roles.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [admin({ adminUserIds: ["user-id"] })] });
 */
export function admin(options?: AdminOptions): AdminPlugin {
  const resolved = resolveAdminOptions(options);
  return {
    id: "admin",
    endpoints: adminEndpoints(resolved),
    schema: adminSchemaFor(resolved.schema),
    hooks: { after: [hideImpersonationSessions] },
    databaseHooks: adminDatabaseHooks(resolved),
    errorCodes: ADMIN_ERROR_CODES,
    options: resolved,
  };
}
