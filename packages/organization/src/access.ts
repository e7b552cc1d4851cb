// `@latchkey/organization/access`: the organization's default statements and roles, as
// `better-auth/plugins/organization/access` exports them.
export * from "@latchkey/access/organization";
