// Browser-safe entry (`@latchkey/organization/client`): the routes as `@latchkey/client`
// methods under the reference client's names (`client.organization.create`, `inviteMember`…).
// Only type imports from the server side, and the access defaults (no server code).
import type { Call, ClientPlugin, ClientResult, QueryValue, RequestOptions } from "@latchkey/client";
import type { AuthorizeRequest, Role } from "@latchkey/access";
import { defaultRoles } from "@latchkey/access/organization";

type Row = Record<string, unknown> & { id: string };
type Body = Record<string, unknown>;
type Query = Record<string, QueryValue>;
type Post<T> = (body?: Body, options?: RequestOptions) => Promise<ClientResult<T>>;
/** GET methods take the query itself or, as the reference client, `{ query }`. */
type Get<T> = (args?: Query | { query?: Query }, options?: RequestOptions) => Promise<ClientResult<T>>;

/** The methods the client gains, as `client.organization.*`. */
export interface OrganizationClientMethods {
  organization: {
    create: Post<Row & { members: Row[] }>;
    update: Post<Row>;
    delete: Post<Row>;
    setActive: Post<Row | null>;
    getOrganization: Get<Row | null>;
    getFullOrganization: Get<(Row & { members: Row[]; invitations: Row[]; teams?: Row[] }) | null>;
    list: Get<Row[]>;
    checkSlug: Post<{ status: boolean }>;
    inviteMember: Post<Row>;
    cancelInvitation: Post<Row | null>;
    acceptInvitation: Post<{ invitation: Row; member: Row }>;
    rejectInvitation: Post<{ invitation: Row | null; member: null }>;
    getInvitation: Get<Row>;
    listInvitations: Get<Row[]>;
    listUserInvitations: Get<Row[]>;
    getActiveMember: Get<Row>;
    getActiveMemberRole: Get<{ role: string }>;
    listMembers: Get<{ members: Row[]; total: number }>;
    removeMember: Post<{ member: Row }>;
    updateMemberRole: Post<Row>;
    leave: Post<Row>;
    hasPermission: Post<{ error: null; success: boolean }>;
    createTeam: Post<Row>;
    updateTeam: Post<Row | null>;
    removeTeam: Post<{ message: string }>;
    listTeams: Get<Row[]>;
    setActiveTeam: Post<Row | null>;
    listUserTeams: Get<Row[]>;
    listTeamMembers: Get<Row[]>;
    addTeamMember: Post<Row>;
    removeTeamMember: Post<{ message: string }>;
    createRole: Post<{ success: boolean; roleData: Row; statements: Record<string, string[]> }>;
    deleteRole: Post<{ success: boolean }>;
    listRoles: Get<Row[]>;
    getRole: Get<Row>;
    updateRole: Post<{ success: boolean; roleData: Row }>;
    /** Checks a role (comma-separated list) against the configured roles in the browser, without a request. */
    checkRolePermission(input: { role: string; permissions: Record<string, string[]> }): boolean;
  };
}

/** Options of `organizationClient()`: the roles the server uses, for `checkRolePermission`. */
export interface OrganizationClientOptions {
  roles?: Record<string, Role>;
  /** The creator role (it is not special client-side; kept for config parity). @default "owner" */
  creatorRole?: string;
}

const POST_ROUTES = {
  create: "/organization/create",
  update: "/organization/update",
  delete: "/organization/delete",
  setActive: "/organization/set-active",
  checkSlug: "/organization/check-slug",
  inviteMember: "/organization/invite-member",
  cancelInvitation: "/organization/cancel-invitation",
  acceptInvitation: "/organization/accept-invitation",
  rejectInvitation: "/organization/reject-invitation",
  removeMember: "/organization/remove-member",
  updateMemberRole: "/organization/update-member-role",
  leave: "/organization/leave",
  hasPermission: "/organization/has-permission",
  createTeam: "/organization/create-team",
  updateTeam: "/organization/update-team",
  removeTeam: "/organization/remove-team",
  setActiveTeam: "/organization/set-active-team",
  addTeamMember: "/organization/add-team-member",
  removeTeamMember: "/organization/remove-team-member",
  createRole: "/organization/create-role",
  deleteRole: "/organization/delete-role",
  updateRole: "/organization/update-role",
} as const;

const GET_ROUTES = {
  getOrganization: "/organization/get-organization",
  getFullOrganization: "/organization/get-full-organization",
  list: "/organization/list",
  getInvitation: "/organization/get-invitation",
  listInvitations: "/organization/list-invitations",
  listUserInvitations: "/organization/list-user-invitations",
  getActiveMember: "/organization/get-active-member",
  getActiveMemberRole: "/organization/get-active-member-role",
  listMembers: "/organization/list-members",
  listTeams: "/organization/list-teams",
  listUserTeams: "/organization/list-user-teams",
  listTeamMembers: "/organization/list-team-members",
  listRoles: "/organization/list-roles",
  getRole: "/organization/get-role",
} as const;

/** The query of a GET call: `{ query }` (reference style) or the query itself. */
const queryOf = (args: Query | { query?: Query } | undefined): Query | undefined =>
  args && typeof args === "object" && "query" in args && typeof args.query === "object" ? args.query : (args as Query | undefined);

/**
 * The client plugin for `organization()`.
 *
 * @example
 * const client = createAuthClient({ baseURL, plugins: [organizationClient()] });
 * await client.organization.create({ name: "Acme", slug: "acme" });
 * const { data } = await client.organization.hasPermission({ permissions: { member: ["delete"] } });
 */
export const organizationClient = (
  options: OrganizationClientOptions = {},
): ClientPlugin<OrganizationClientMethods> & { id: "organization" } => ({
  id: "organization",
  methods: (call: Call) => {
    const organization: Record<string, unknown> = {};
    for (const [name, path] of Object.entries(POST_ROUTES)) {
      organization[name] = (body: Body = {}, request: RequestOptions = {}) => call(path, { ...request, method: "POST", body });
    }
    for (const [name, path] of Object.entries(GET_ROUTES)) {
      organization[name] = (args?: Query | { query?: Query }, request: RequestOptions = {}) =>
        call(path, { ...request, method: "GET", query: queryOf(args) });
    }
    const roles: Record<string, Role> = options.roles ?? defaultRoles;
    organization.checkRolePermission = ({ role, permissions }: { role: string; permissions: Record<string, string[]> }) =>
      role.split(",").some((name) => Object.hasOwn(roles, name) && roles[name]!.authorize(permissions as AuthorizeRequest).success);
    return { organization: organization as OrganizationClientMethods["organization"] };
  },
});
