import { applicationCallbacks, type AuthContext, type DBField, type EndpointContext, type Session, type User } from "@latchkey/core";
import type { AccessControl, Role } from "@latchkey/access";
import { defaultRoles } from "@latchkey/access/organization";
import type { OrganizationHooks } from "./hooks.js";
import type { InvitationRow, MemberRow, OrganizationRow, TeamRow } from "./rows.js";

type MaybePromise<T> = T | Promise<T>;

/** A session and its user, as the limit callbacks receive them. */
export interface SessionAndUser {
  session: Session;
  user: User;
}

/** What `sendInvitationEmail` receives: the reference's `data` shape. */
export interface InvitationEmailData {
  /** The invitation id: the token the invitee's link carries to `accept-invitation`. */
  id: string;
  role: string;
  email: string;
  organization: OrganizationRow;
  invitation: InvitationRow;
  /** The inviting member, with their user. */
  inviter: MemberRow & { user: User };
}

/** Per-table renames and extra columns, under the reference's `schema` option. */
export interface TableOptions {
  modelName?: string;
  fields?: Record<string, string>;
  additionalFields?: Record<string, DBField>;
}

/** `teams` option: teams inside organizations. */
export interface TeamsOptions {
  enabled: boolean;
  /** A team named after the organization, created with it. */
  defaultTeam?: {
    /** @default true */
    enabled?: boolean;
    customCreateDefaultTeam?: (organization: OrganizationRow, ctx: EndpointContext) => MaybePromise<TeamRow>;
  };
  /** Teams one organization may have. @default unlimited */
  maximumTeams?:
    | number
    | ((data: { organizationId: string; session: SessionAndUser | null }, ctx: EndpointContext) => MaybePromise<number>);
  /** Members one team may have, enforced atomically through `team.memberCount`. @default unlimited */
  maximumMembersPerTeam?:
    | number
    | ((data: { teamId: string; session: SessionAndUser | null; organizationId: string }) => MaybePromise<number>);
  /** Lets the last team of an organization be removed. @default false */
  allowRemovingAllTeams?: boolean;
}

/** Options of `organization()`, under the reference's names and with its defaults. */
export interface OrganizationOptions {
  /** Whether a user may create organizations. @default true */
  allowUserToCreateOrganization?: boolean | ((user: User) => MaybePromise<boolean>);
  /** Organizations one user may belong to; a function answers "limit reached". @default unlimited */
  organizationLimit?: number | ((user: User) => MaybePromise<boolean>);
  /** The role the creator gets, and which may do everything. @default "owner" */
  creatorRole?: string;
  /** Members one organization may have; also the default page of `list-members`. @default 100 */
  membershipLimit?: number | ((user: User, organization: OrganizationRow) => MaybePromise<number>);
  /** The access control whose statements the roles grant (needed by dynamic access control). */
  ac?: AccessControl;
  /** Roles by name; replaces the default `owner`, `admin` and `member` roles. @default defaultRoles */
  roles?: Record<string, Role>;
  /** Roles stored per organization in the `organizationRole` table. */
  dynamicAccessControl?: {
    enabled?: boolean;
    /** @default unlimited */
    maximumRolesPerOrganization?: number | ((organizationId: string) => MaybePromise<number>);
  };
  teams?: TeamsOptions;
  /** Seconds an invitation stays valid. @default 172800 (48 hours) */
  invitationExpiresIn?: number;
  /** Pending invitations one organization may have. @default 100 */
  invitationLimit?:
    | number
    | ((
        data: { user: User; organization: OrganizationRow; member: MemberRow },
        ctx: AuthContext,
      ) => MaybePromise<number>);
  /** A new invitation to a pending invitee cancels the pending one instead of failing. @default false */
  cancelPendingInvitationsOnReInvite?: boolean;
  /**
   * Invitation ids act as bearer tokens only with the built-in random ids; with custom ids the
   * recipient must have a verified email. @default required only when ids are custom
   */
  requireEmailVerificationOnInvitation?: boolean;
  /** Sends the invitation (the plugin sends no mail itself). */
  sendInvitationEmail?: (data: InvitationEmailData, request?: Request) => MaybePromise<void>;
  /** `POST /organization/delete` answers 404 `ORGANIZATION_DELETION_DISABLED`. @default false */
  disableOrganizationDeletion?: boolean;
  organizationHooks?: OrganizationHooks;
  schema?: {
    organization?: TableOptions;
    member?: TableOptions;
    invitation?: TableOptions;
    team?: TableOptions;
    teamMember?: Omit<TableOptions, "additionalFields">;
    organizationRole?: TableOptions;
    session?: { fields?: { activeOrganizationId?: string; activeTeamId?: string } };
  };
}

/** The options after defaults, as the routes read them. */
export interface ResolvedOrganizationOptions extends OrganizationOptions {
  creatorRole: string;
  roles: Record<string, Role>;
  invitationExpiresIn: number;
  teamsEnabled: boolean;
  dynamicRoles: boolean;
  /** The names no dynamic role may take: the configured (or default) roles. */
  staticRoleNames: Set<string>;
}

const positive = (name: string, value: unknown): void => {
  if (value !== undefined && typeof value !== "function" && (typeof value !== "number" || !(value >= 0))) {
    throw new TypeError(`organization: ${name} must be a non-negative number or a function`);
  }
};

/** Applies the defaults once; a limit that is neither a number nor a function is a `TypeError`. */
export function resolveOrganizationOptions(options: OrganizationOptions = {}): ResolvedOrganizationOptions {
  positive("organizationLimit", options.organizationLimit);
  positive("membershipLimit", options.membershipLimit);
  positive("invitationLimit", options.invitationLimit);
  positive("invitationExpiresIn", options.invitationExpiresIn);
  positive("teams.maximumTeams", options.teams?.maximumTeams);
  positive("teams.maximumMembersPerTeam", options.teams?.maximumMembersPerTeam);
  const roles: Record<string, Role> = { ...defaultRoles, ...options.roles };
  // The application's hooks and sender may refuse a request with an APIError of their own code.
  const callbacks = applicationCallbacks({ sendInvitationEmail: options.sendInvitationEmail });
  return {
    ...options,
    sendInvitationEmail: callbacks.sendInvitationEmail,
    organizationHooks: options.organizationHooks && applicationCallbacks(options.organizationHooks),
    creatorRole: options.creatorRole || "owner",
    roles: options.roles ?? defaultRoles,
    invitationExpiresIn: options.invitationExpiresIn || 172800,
    teamsEnabled: options.teams?.enabled === true,
    dynamicRoles: options.dynamicAccessControl?.enabled === true,
    staticRoleNames: new Set(Object.keys(roles)),
  };
}
