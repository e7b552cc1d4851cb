// `@latchkey/access/organization`: the organization plugin's default statements and roles, as
// `better-auth/plugins/organization/access` exports them.
import { createAccessControl } from "./access-control.js";

/** Everything a member's role can be allowed to do inside an organization. */
export const defaultStatements = {
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  ac: ["create", "read", "update", "delete"],
} as const;

export const defaultAc = createAccessControl(defaultStatements);

/** The `owner` role: everything. */
export const ownerAc = defaultAc.newRole({
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  ac: ["create", "read", "update", "delete"],
});

/** The `admin` role: everything except deleting the organization. */
export const adminAc = defaultAc.newRole({
  organization: ["update"],
  invitation: ["create", "cancel"],
  member: ["create", "update", "delete"],
  team: ["create", "update", "delete"],
  ac: ["create", "read", "update", "delete"],
});

/** The `member` role: reading the organization's roles only. */
export const memberAc = defaultAc.newRole({
  organization: [],
  member: [],
  invitation: [],
  team: [],
  ac: ["read"],
});

/** The roles an organization has when the application configures none. */
export const defaultRoles = { admin: adminAc, owner: ownerAc, member: memberAc };
