// `@latchkey/access`: the access-control primitives, as `better-auth/plugins/access` exports them.
export { createAccessControl } from "./access-control.js";
export { role } from "./role.js";
export type {
  AccessControl,
  ActionsOf,
  AuthorizeRequest,
  AuthorizeResponse,
  Connector,
  ExactStatements,
  Role,
  RoleInput,
  RoleStatements,
  Statements,
} from "./types.js";
