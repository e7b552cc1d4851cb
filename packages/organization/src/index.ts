import type { LatchkeyPlugin } from "@latchkey/core";
import { ORGANIZATION_ERROR_CODES } from "./error-codes.js";
import { resolveOrganizationOptions, type OrganizationOptions, type ResolvedOrganizationOptions } from "./options.js";
import { getFullOrganization, getOrganization, listOrganizations, setActiveOrganization } from "./routes/active.js";
import { checkOrganizationSlug, createOrganization } from "./routes/create.js";
import { hasPermissionRoute } from "./routes/has-permission.js";
import { acceptInvitation, cancelInvitation, rejectInvitation } from "./routes/invitation-answers.js";
import { getInvitation, listInvitations, listUserInvitations } from "./routes/invitation-reads.js";
import { createInvitation } from "./routes/invite.js";
import { getActiveMember, getActiveMemberRole, listMembers } from "./routes/member-reads.js";
import { updateMemberRole } from "./routes/member-role.js";
import { addMember, leaveOrganization, removeMember } from "./routes/members.js";
import { roleEndpoints } from "./routes/roles.js";
import { addTeamMember, listTeamMembers, listUserTeams, removeTeamMember, setActiveTeam } from "./routes/team-members.js";
import { createTeam, listOrganizationTeams, removeTeam, updateTeam } from "./routes/teams.js";
import { deleteOrganization, updateOrganization } from "./routes/update-delete.js";
import { organizationSchema } from "./schema.js";

export { ORGANIZATION_ERROR_CODES, ORGANIZATION_ERROR_CODES as ERROR_CODES } from "./error-codes.js";
export type { InvitationEmailData, OrganizationOptions, TeamsOptions } from "./options.js";
export type { OrganizationHooks } from "./hooks.js";
export type { InvitationRow, MemberRow, OrganizationRoleRow, OrganizationRow, TeamMemberRow, TeamRow } from "./rows.js";
export { membershipKey } from "./team-seats.js";

function baseEndpoints(o: ResolvedOrganizationOptions) {
  return {
    createOrganization: createOrganization(o),
    updateOrganization: updateOrganization(o),
    deleteOrganization: deleteOrganization(o),
    setActiveOrganization,
    getOrganization,
    getFullOrganization: getFullOrganization(o),
    listOrganizations,
    createInvitation: createInvitation(o),
    cancelInvitation: cancelInvitation(o),
    acceptInvitation: acceptInvitation(o),
    getInvitation: getInvitation(o),
    rejectInvitation: rejectInvitation(o),
    listInvitations,
    getActiveMember,
    checkOrganizationSlug,
    addMember: addMember(o),
    removeMember: removeMember(o),
    updateMemberRole: updateMemberRole(o),
    leaveOrganization: leaveOrganization(o),
    listUserInvitations,
    listMembers: listMembers(o),
    getActiveMemberRole,
    hasPermission: hasPermissionRoute(o),
  };
}

function teamEndpoints(o: ResolvedOrganizationOptions) {
  return {
    createTeam: createTeam(o),
    listOrganizationTeams,
    removeTeam: removeTeam(o),
    updateTeam: updateTeam(o),
    setActiveTeam,
    listUserTeams: listUserTeams(o),
    listTeamMembers,
    addTeamMember: addTeamMember(o),
    removeTeamMember: removeTeamMember(o),
  };
}

/** Every endpoint `organization()` can mount; teams and role routes only when enabled. */
export type OrganizationEndpoints = ReturnType<typeof baseEndpoints> &
  Partial<ReturnType<typeof teamEndpoints>> &
  Partial<ReturnType<typeof roleEndpoints>>;

/** The plugin object `organization()` returns. */
export interface OrganizationPlugin extends LatchkeyPlugin<"organization", OrganizationEndpoints> {
  id: "organization";
  options: ResolvedOrganizationOptions;
}

/**
 * Organizations with members, invitations, roles and (optionally) teams and roles stored per
 * organization. Every change to one organization's membership is decided under that
 * organization's row lock, so limits, seats, single-use invitations and the last owner hold
 * under any concurrency.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [organization({ teams: { enabled: true } })] });
 */
export function organization(options?: OrganizationOptions): OrganizationPlugin {
  const resolved = resolveOrganizationOptions(options);
  if (resolved.dynamicRoles && !resolved.ac) {
    throw new TypeError("organization: dynamicAccessControl needs an `ac` (createAccessControl) to check roles against");
  }
  const endpoints: OrganizationEndpoints = {
    ...baseEndpoints(resolved),
    ...(resolved.teamsEnabled ? teamEndpoints(resolved) : {}),
    ...(resolved.dynamicRoles ? roleEndpoints(resolved) : {}),
  };
  return {
    id: "organization",
    endpoints,
    schema: organizationSchema(resolved),
    errorCodes: ORGANIZATION_ERROR_CODES,
    options: resolved,
  };
}
