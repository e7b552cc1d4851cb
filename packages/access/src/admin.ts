// `@latchkey/access/admin`: the admin plugin's default statements and roles, as
// `better-auth/plugins/admin/access` exports them.
import { createAccessControl } from "./access-control.js";

/** Everything an administrator's role can be allowed to do to users and their sessions. */
export const defaultStatements = {
  user: [
    "create",
    "list",
    "set-role",
    "ban",
    "impersonate",
    "impersonate-admins",
    "delete",
    "set-password",
    "set-email",
    "get",
    "update",
  ],
  session: ["list", "revoke", "delete"],
} as const;

export const defaultAc = createAccessControl(defaultStatements);

/** The `admin` role: every user and session action except impersonating other admins. */
export const adminAc = defaultAc.newRole({
  user: [
    "create",
    "list",
    "set-role",
    "ban",
    "impersonate",
    "delete",
    "set-password",
    "set-email",
    "get",
    "update",
  ],
  session: ["list", "revoke", "delete"],
});

/** The `user` role: no administrative action. */
export const userAc = defaultAc.newRole({ user: [], session: [] });

/** The roles the admin plugin knows when the application configures none. */
export const defaultRoles = { admin: adminAc, user: userAc };
