import { endpoint, sessionMiddleware, type EndpointContext, type SessionWithUser } from "@latchkey/core";
import * as v from "valibot";
import { findMember, findOrganization } from "../member-store.js";
import { seatLimit } from "../limits.js";
import { withOrganizationLock } from "../org-lock.js";
import type { ResolvedOrganizationOptions } from "../options.js";
import { hasPermission } from "../permission.js";
import { activeOrganizationId, activeTeamId, fail, messageError, stillAllowed } from "../route-kit.js";
import type { TeamMemberRow, TeamRow } from "../rows.js";
import { findTeamMember, joinTeam, leaveTeam, publicTeamMember } from "../team-seats.js";
import { setActive } from "./active.js";
import { createTeamMember, findTeam } from "./members.js";
import { teamOutput } from "./teams.js";

const userIdInput = v.union([v.string(), v.pipe(v.number(), v.transform(String))]);
const memberBody = v.object({ teamId: v.string(), userId: userIdInput, organizationId: v.optional(v.string()) });

/** `POST /organization/set-active-team` `{ teamId? }`: a team of the active organization the caller is in; null unsets. */
export const setActiveTeam = endpoint(
  "/organization/set-active-team",
  { method: "POST", body: v.object({ teamId: v.nullish(v.string()) }), requireHeaders: true, use: [sessionMiddleware] },
  async (ctx) => {
    const { session, adapter } = ctx.context;
    if (ctx.body.teamId === null) {
      if (!activeTeamId(session)) return null;
      await setActive(ctx, session, { activeTeamId: null });
      return null;
    }
    const teamId = ctx.body.teamId || activeTeamId(session);
    if (!teamId) return null;
    const organizationId = activeOrganizationId(session);
    if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
    const team = await findTeam(ctx, teamId, organizationId);
    if (!team) throw fail("TEAM_NOT_FOUND", "BAD_REQUEST");
    if (!(await findTeamMember(adapter, teamId, session.user.id))) throw fail("USER_IS_NOT_A_MEMBER_OF_THE_TEAM", "FORBIDDEN");
    await setActive(ctx, session, { activeTeamId: team.id });
    return teamOutput(ctx, team);
  },
);

/** The teams `userId` is in, within the organizations they still belong to (or one organization). */
async function teamsOf(ctx: EndpointContext, userId: string, organizationId: string | null): Promise<TeamRow[]> {
  const { adapter } = ctx.context;
  const memberships = await adapter.findMany<TeamMemberRow>({ model: "teamMember", where: [{ field: "userId", value: userId }] });
  if (!memberships.length) return [];
  const ids = [...new Set(memberships.map((m) => m.teamId))];
  const teams = await adapter.findMany<TeamRow>({ model: "team", where: [{ field: "id", value: ids, operator: "in" }], limit: ids.length });
  if (organizationId) return teams.filter((t) => t.organizationId === organizationId);
  const organizations = [...new Set(teams.map((t) => t.organizationId))];
  const stillIn = new Set<string>();
  for (const id of organizations) if (await findMember(adapter, userId, id)) stillIn.add(id);
  return teams.filter((t) => stillIn.has(t.organizationId));
}

/**
 * `GET /organization/list-user-teams?userId&organizationId`: the caller's teams; another user's
 * within an organization needs `member:update` there.
 */
export const listUserTeams = (options: ResolvedOrganizationOptions) =>
  endpoint(
    "/organization/list-user-teams",
    {
      method: "GET",
      query: v.optional(v.object({ userId: v.optional(v.string()), organizationId: v.optional(v.string()) })),
      requireHeaders: true,
      use: [sessionMiddleware],
    },
    async (ctx) => {
      const { session, adapter } = ctx.context;
      const target = ctx.query?.userId || session.user.id;
      const organizationId = ctx.query?.organizationId || activeOrganizationId(session);
      if (target !== session.user.id) {
        if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
        const requester = await findMember(adapter, session.user.id, organizationId);
        if (!requester) throw fail("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION", "FORBIDDEN");
        if (!(await hasPermission(adapter, options, { role: requester.role, organizationId, permissions: { member: ["update"] } }))) {
          throw fail("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER", "FORBIDDEN");
        }
        if (!(await findMember(adapter, target, organizationId))) throw fail("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", "BAD_REQUEST");
        return (await teamsOf(ctx, target, organizationId)).map((t) => teamOutput(ctx, t));
      }
      if (ctx.query?.organizationId) {
        if (!(await findMember(adapter, session.user.id, ctx.query.organizationId))) throw fail("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION", "FORBIDDEN");
        return (await teamsOf(ctx, session.user.id, ctx.query.organizationId)).map((t) => teamOutput(ctx, t));
      }
      return (await teamsOf(ctx, session.user.id, null)).map((t) => teamOutput(ctx, t));
    },
  );

/** `GET /organization/list-team-members?teamId`: the members of a team (default: the active team) the caller is in. */
export const listTeamMembers = endpoint(
  "/organization/list-team-members",
  { method: "GET", query: v.optional(v.object({ teamId: v.optional(v.string()) })), requireHeaders: true, use: [sessionMiddleware] },
  async (ctx) => {
    const { session, adapter } = ctx.context;
    const teamId = ctx.query?.teamId || activeTeamId(session);
    if (!teamId) throw fail("YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM", "BAD_REQUEST");
    const team = await findTeam(ctx, teamId);
    if (!team) throw fail("TEAM_NOT_FOUND", "BAD_REQUEST");
    if (!(await findMember(adapter, session.user.id, team.organizationId))) throw fail("USER_IS_NOT_A_MEMBER_OF_THE_TEAM", "BAD_REQUEST");
    if (!(await findTeamMember(adapter, teamId, session.user.id))) throw fail("USER_IS_NOT_A_MEMBER_OF_THE_TEAM", "BAD_REQUEST");
    const rows = await adapter.findMany<TeamMemberRow>({ model: "teamMember", where: [{ field: "teamId", value: teamId }] });
    return rows.map(publicTeamMember);
  },
);

/**
 * Inside the lock: the caller still holds `action` on members, the target user is a member, the
 * team belongs to the organization; answers the team, organization and user.
 */
async function teamMemberTarget(
  ctx: EndpointContext<{ teamId: string; userId: string }, unknown, { session: SessionWithUser }>,
  options: ResolvedOrganizationOptions,
  organizationId: string,
  action: "update" | "delete",
) {
  const { adapter, internalAdapter, session } = ctx.context;
  await stillAllowed(ctx, options, {
    userId: session.user.id,
    organizationId,
    permissions: { member: [action] },
    notMember: ["USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", "BAD_REQUEST"],
    denied: action === "update" ? "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER" : "YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER",
  });
  if (!(await findMember(adapter, ctx.body.userId, organizationId))) throw fail("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", "BAD_REQUEST");
  const team = await findTeam(ctx, ctx.body.teamId, organizationId);
  if (!team) throw fail("TEAM_NOT_FOUND", "BAD_REQUEST");
  const organization = await findOrganization(adapter, organizationId);
  if (!organization) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
  const user = await internalAdapter.findUserById(ctx.body.userId);
  if (!user) throw messageError("BAD_REQUEST", "User not found");
  return { team, organization, user };
}

/**
 * `POST /organization/add-team-member` `{ teamId, userId, organizationId? }` (needs
 * `member:update`; the user must be a member): the team membership. With
 * `maximumMembersPerTeam` the seat is taken atomically (see `joinTeam`), under the lock.
 */
export function addTeamMember(options: ResolvedOrganizationOptions) {
  return endpoint("/organization/add-team-member", { method: "POST", body: memberBody, requireHeaders: true, use: [sessionMiddleware] }, async (ctx) => {
    const { session, adapter } = ctx.context;
    const organizationId = ctx.body.organizationId || activeOrganizationId(session);
    if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
    const outcome = await withOrganizationLock(ctx, organizationId, async () => {
      const { team, organization, user } = await teamMemberTarget(ctx, options, organizationId, "update");
      const teamMember = { teamId: team.id, userId: user.id };
      await options.organizationHooks?.beforeAddTeamMember?.({ teamMember, team: teamOutput(ctx, team), user, organization });
      const maximum = await seatLimit(options, { teamId: team.id, organizationId, session });
      const joined = await joinTeam(adapter, { ...teamMember, maximum }, createTeamMember(ctx));
      if (joined.status === "limitReached") throw fail("TEAM_MEMBER_LIMIT_REACHED", "FORBIDDEN");
      return { teamMember: joined.member, team: teamOutput(ctx, team), user, organization };
    });
    await options.organizationHooks?.afterAddTeamMember?.(outcome);
    return outcome.teamMember;
  });
}

/** `POST /organization/remove-team-member` `{ teamId, userId, organizationId? }` (needs `member:delete`): the seat goes back. */
export function removeTeamMember(options: ResolvedOrganizationOptions) {
  return endpoint("/organization/remove-team-member", { method: "POST", body: memberBody, requireHeaders: true, use: [sessionMiddleware] }, async (ctx) => {
    const { session, adapter } = ctx.context;
    const organizationId = ctx.body.organizationId || activeOrganizationId(session);
    if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
    const outcome = await withOrganizationLock(ctx, organizationId, async () => {
      const { team, organization, user } = await teamMemberTarget(ctx, options, organizationId, "delete");
      const row = await findTeamMember(adapter, team.id, user.id);
      if (!row) throw fail("USER_IS_NOT_A_MEMBER_OF_THE_TEAM", "BAD_REQUEST");
      const teamMember = publicTeamMember(row);
      const data = { teamMember, team: teamOutput(ctx, team), user, organization };
      await options.organizationHooks?.beforeRemoveTeamMember?.(data);
      await leaveTeam(adapter, team.id, user.id);
      return data;
    });
    await options.organizationHooks?.afterRemoveTeamMember?.(outcome);
    return { message: "Team member removed successfully." };
  });
}
