// `@latchkey/admin/access`: the admin statements and default roles, as
// `better-auth/plugins/admin/access` exports them (they live in `@latchkey/access/admin`).
export { adminAc, defaultAc, defaultRoles, defaultStatements, userAc } from "@latchkey/access/admin";
