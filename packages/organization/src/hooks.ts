import type { User } from "@latchkey/core";
import type { InvitationRow, MemberRow, OrganizationRow, TeamMemberRow, TeamRow } from "./rows.js";

type MaybePromise<T> = T | Promise<T>;
/** A `before*` hook may answer `{ data }` to change what is written. */
type Before<A, D = Record<string, unknown>> = (data: A) => MaybePromise<{ data: D } | void>;
type After<A> = (data: A) => MaybePromise<void>;

/**
 * `organizationHooks`: callbacks around each write, with the reference's names and arguments.
 * A `before*` hook that throws refuses the request; one that answers `{ data }` merges it into
 * the row about to be written.
 */
export interface OrganizationHooks {
  beforeCreateOrganization?: Before<{ organization: Record<string, unknown>; user: User }>;
  afterCreateOrganization?: After<{ organization: OrganizationRow; user: User; member: MemberRow }>;
  beforeUpdateOrganization?: Before<{ organization: Record<string, unknown>; user: User; member: MemberRow }>;
  afterUpdateOrganization?: After<{ organization: OrganizationRow | null; user: User; member: MemberRow }>;
  beforeDeleteOrganization?: After<{ organization: OrganizationRow; user: User }>;
  afterDeleteOrganization?: After<{ organization: OrganizationRow; user: User }>;
  beforeAddMember?: Before<{ member: Record<string, unknown>; user: User; organization: OrganizationRow }>;
  afterAddMember?: After<{ member: MemberRow; user: User; organization: OrganizationRow }>;
  beforeRemoveMember?: After<{ member: MemberRow; user: User; organization: OrganizationRow }>;
  afterRemoveMember?: After<{ member: MemberRow; user: User; organization: OrganizationRow }>;
  beforeUpdateMemberRole?: Before<
    { member: MemberRow; newRole: string; user: User; organization: OrganizationRow },
    { role?: string }
  >;
  afterUpdateMemberRole?: After<{ member: MemberRow; previousRole: string; user: User; organization: OrganizationRow }>;
  beforeCreateInvitation?: Before<{ invitation: Record<string, unknown>; inviter: User; organization: OrganizationRow }>;
  afterCreateInvitation?: After<{ invitation: InvitationRow; inviter: User; organization: OrganizationRow }>;
  beforeAcceptInvitation?: After<{ invitation: InvitationRow; user: User; organization: OrganizationRow }>;
  afterAcceptInvitation?: After<{ invitation: InvitationRow; member: MemberRow; user: User; organization: OrganizationRow }>;
  beforeRejectInvitation?: After<{ invitation: InvitationRow; user: User; organization: OrganizationRow }>;
  afterRejectInvitation?: After<{ invitation: InvitationRow; user: User; organization: OrganizationRow }>;
  beforeCancelInvitation?: After<{ invitation: InvitationRow; cancelledBy: User; organization: OrganizationRow }>;
  afterCancelInvitation?: After<{ invitation: InvitationRow; cancelledBy: User; organization: OrganizationRow }>;
  beforeCreateTeam?: Before<{ team: Record<string, unknown>; user?: User; organization: OrganizationRow }>;
  afterCreateTeam?: After<{ team: TeamRow; user?: User; organization: OrganizationRow }>;
  beforeUpdateTeam?: Before<{ team: TeamRow; updates: Record<string, unknown>; user: User; organization: OrganizationRow }>;
  afterUpdateTeam?: After<{ team: TeamRow | null; user: User; organization: OrganizationRow }>;
  beforeDeleteTeam?: After<{ team: TeamRow; user?: User; organization: OrganizationRow }>;
  afterDeleteTeam?: After<{ team: TeamRow; user?: User; organization: OrganizationRow }>;
  beforeAddTeamMember?: Before<{ teamMember: { teamId: string; userId: string }; team: TeamRow; user: User; organization: OrganizationRow }>;
  afterAddTeamMember?: After<{ teamMember: TeamMemberRow; team: TeamRow; user: User; organization: OrganizationRow }>;
  beforeRemoveTeamMember?: After<{ teamMember: TeamMemberRow; team: TeamRow; user: User; organization: OrganizationRow }>;
  afterRemoveTeamMember?: After<{ teamMember: TeamMemberRow; team: TeamRow; user: User; organization: OrganizationRow }>;
}

/** Merges a `before*` hook's `{ data }` answer over `base`. */
export function mergeHookData<T extends object>(base: T, answer: unknown): T {
  if (answer && typeof answer === "object" && "data" in answer && answer.data && typeof answer.data === "object") {
    return { ...base, ...(answer.data as Partial<T>) };
  }
  return base;
}
