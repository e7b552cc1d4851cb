import { badInputBattery, routesFromEndpoints, type BatteryRoute, type EndpointLike } from "@latchkey/test-support";
import { createAccessControl } from "@latchkey/access";
import { defaultStatements } from "@latchkey/access/organization";
import { organization, type OrganizationOptions } from "../src/index.ts";
import { fastUser } from "./fast-users.ts";
import { createOrg, orgInstance } from "./instance.ts";

const options: OrganizationOptions = {
  teams: { enabled: true },
  dynamicAccessControl: { enabled: true },
  ac: createAccessControl(defaultStatements),
};

/**
 * Valid bodies and queries the routes then refuse without a write: an organization, invitation,
 * team or role nobody has, or a slug already taken.
 */
const unknown = "no-such-id";
/** Routes whose refusals carry a message and no code, as the reference's do. */
const messageOnly: Partial<BatteryRoute> = {
  expect: {
    "huge value": { code: null },
    "invalid percent-encoding": { code: null },
    "control characters": { code: null },
    "array key": { code: null },
  },
};
const routes: Record<string, Partial<BatteryRoute>> = {
  createOrganization: { validBody: { name: "Taken", slug: "battery-org" } },
  checkOrganizationSlug: { validBody: { slug: "battery-org" } },
  updateOrganization: { validBody: { data: { name: "New" }, organizationId: unknown } },
  deleteOrganization: { validBody: { organizationId: unknown } },
  setActiveOrganization: { validBody: { organizationId: unknown } },
  getOrganization: { validQuery: { organizationId: unknown } },
  getFullOrganization: { validQuery: { organizationId: unknown, membersLimit: "5" } },
  createInvitation: { validBody: { email: "invitee@example.com", role: "member", organizationId: unknown } },
  cancelInvitation: { validBody: { invitationId: unknown } },
  acceptInvitation: { validBody: { invitationId: unknown } },
  rejectInvitation: { validBody: { invitationId: unknown } },
  getInvitation: { validQuery: { id: unknown }, ...messageOnly },
  listInvitations: { validQuery: { organizationId: unknown }, ...messageOnly },
  listUserInvitations: messageOnly,
  removeMember: { validBody: { memberIdOrEmail: unknown, organizationId: unknown } },
  updateMemberRole: { validBody: { role: "member", memberId: unknown, organizationId: unknown } },
  leaveOrganization: { validBody: { organizationId: unknown } },
  listMembers: { validQuery: { organizationId: unknown, limit: "10" } },
  getActiveMemberRole: { validQuery: { organizationId: unknown } },
  hasPermission: { validBody: { organizationId: unknown, permissions: { member: ["delete"] } } },
  createTeam: { validBody: { name: "T", organizationId: unknown } },
  removeTeam: { validBody: { teamId: unknown, organizationId: unknown } },
  updateTeam: { validBody: { teamId: unknown, data: { name: "T", organizationId: unknown } } },
  setActiveTeam: { validBody: { teamId: unknown } },
  listUserTeams: { validQuery: { organizationId: unknown } },
  listTeamMembers: { validQuery: { teamId: unknown } },
  listOrganizationTeams: { validQuery: { organizationId: unknown } },
  addTeamMember: { validBody: { teamId: unknown, userId: unknown, organizationId: unknown } },
  removeTeamMember: { validBody: { teamId: unknown, userId: unknown, organizationId: unknown } },
  createOrgRole: { validBody: { role: "auditor", permission: { member: ["update"] }, organizationId: unknown } },
  deleteOrgRole: { validBody: { roleName: "auditor", organizationId: unknown } },
  listOrgRoles: { validQuery: { organizationId: unknown } },
  getOrgRole: { validQuery: { roleName: "auditor", organizationId: unknown } },
  updateOrgRole: { validBody: { roleName: "auditor", organizationId: unknown, data: { roleName: "viewer" } } },
};

badInputBattery({
  name: "organization routes refuse bad input and write nothing (SQLite, teams and dynamic roles on)",
  instance: async () => {
    const t = await orgInstance("sqlite", options);
    const caller = await fastUser(t, "battery");
    await createOrg(caller.browser, "battery-org");
    return { auth: t.auth, headers: { cookie: caller.cookie }, close: () => t.close() };
  },
  routes: routesFromEndpoints(organization(options).endpoints as unknown as Record<string, EndpointLike>, { routes }),
});
