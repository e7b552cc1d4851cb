import { APIError, endpoint, getSessionFromRequest, sessionMiddleware, toOutput, type EndpointContext, type SessionWithUser } from "@latchkey/core";
import * as v from "valibot";
import { additionalFieldEntries, pickAdditional } from "../additional-fields.js";
import { mergeHookData } from "../hooks.js";
import { pendingInvitations } from "../invitation-store.js";
import { findMember, findOrganization } from "../member-store.js";
import { withOrganizationLock } from "../org-lock.js";
import type { ResolvedOrganizationOptions } from "../options.js";
import { hasPermission, type Permissions } from "../permission.js";
import { activeOrganizationId, activeTeamId, calledWithHeaders, fail, stillAllowed } from "../route-kit.js";
import type { TeamRow } from "../rows.js";
import { findTeam } from "./members.js";

type Code = Parameters<typeof fail>[0];

/** A team as answered (`memberCount` is internal). */
export const teamOutput = (ctx: EndpointContext, team: TeamRow): TeamRow => toOutput(ctx.context.schema, "team", team);

/** The teams of an organization. */
const listTeams = (ctx: EndpointContext, organizationId: string) =>
  ctx.context.adapter.findMany<TeamRow>({ model: "team", where: [{ field: "organizationId", value: organizationId }] });

/** A session caller's membership and permission (server calls without a session skip both). */
async function checkCaller(
  ctx: EndpointContext,
  options: ResolvedOrganizationOptions,
  session: SessionWithUser | null,
  organizationId: string,
  permissions: Permissions,
  codes: { notMember: Code; denied: Code },
): Promise<void> {
  if (!session) return;
  const member = await findMember(ctx.context.adapter, session.user.id, organizationId);
  if (!member) throw fail(codes.notMember, "FORBIDDEN");
  if (!(await hasPermission(ctx.context.adapter, options, { role: member.role, organizationId, permissions }))) throw fail(codes.denied, "FORBIDDEN");
}

/** `POST /organization/create-team` `{ name, organizationId? }` (needs `team:create`; `maximumTeams`): the team. */
export function createTeam(options: ResolvedOrganizationOptions) {
  const body = v.object({ name: v.string(), organizationId: v.optional(v.string()), ...additionalFieldEntries(options.schema?.team?.additionalFields) });
  return endpoint("/organization/create-team", { method: "POST", body }, async (ctx) => {
    const session = await getSessionFromRequest(ctx);
    const organizationId = ctx.body.organizationId || activeOrganizationId(session);
    if (!session && calledWithHeaders(ctx)) throw new APIError("UNAUTHORIZED");
    if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
    const permissions = { team: ["create"] };
    const codes = { notMember: "YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION", denied: "YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION" } as const;
    await checkCaller(ctx, options, session, organizationId, permissions, codes);
    const organization = await findOrganization(ctx.context.adapter, organizationId);
    let data: Record<string, unknown> = { name: ctx.body.name, organizationId, ...pickAdditional(ctx.body, options.schema?.team?.additionalFields) };
    const hooks = options.organizationHooks;
    const team = await withOrganizationLock(ctx, organizationId, async () => {
      await checkCaller(ctx, options, session, organizationId, permissions, codes);
      const configured = options.teams?.maximumTeams;
      const maximum = typeof configured === "function" ? await configured({ organizationId, session }, ctx) : configured;
      if (maximum && (await listTeams(ctx, organizationId)).length >= maximum) throw fail("YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS", "BAD_REQUEST");
      if (!organization) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
      if (hooks?.beforeCreateTeam) data = mergeHookData(data, await hooks.beforeCreateTeam({ team: data, user: session?.user, organization }));
      const now = new Date();
      return (await ctx.context.internalAdapter.create<TeamRow>("team", { createdAt: now, updatedAt: now, ...data, memberCount: 0 }))!;
    });
    await hooks?.afterCreateTeam?.({ team: teamOutput(ctx, team), user: session?.user, organization: organization! });
    return teamOutput(ctx, team);
  });
}

/**
 * `POST /organization/remove-team` `{ teamId, organizationId? }` (needs `team:delete`): deletes the
 * team and its memberships and drops it from pending invitations. Not the caller's active team;
 * not the last team unless `allowRemovingAllTeams`.
 */
export function removeTeam(options: ResolvedOrganizationOptions) {
  const body = v.object({ teamId: v.string(), organizationId: v.optional(v.string()) });
  return endpoint("/organization/remove-team", { method: "POST", body }, async (ctx) => {
    const session = await getSessionFromRequest(ctx);
    const organizationId = ctx.body.organizationId || activeOrganizationId(session);
    if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
    if (!session && calledWithHeaders(ctx)) throw new APIError("UNAUTHORIZED");
    const { adapter } = ctx.context;
    const outcome = await withOrganizationLock(ctx, organizationId, async () => {
      if (session) {
        const member = await findMember(adapter, session.user.id, organizationId);
        if (!member || activeTeamId(session) === ctx.body.teamId) throw fail("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM", "FORBIDDEN");
        if (!(await hasPermission(adapter, options, { role: member.role, organizationId, permissions: { team: ["delete"] } }))) {
          throw fail("YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION", "FORBIDDEN");
        }
      }
      const team = await findTeam(ctx, ctx.body.teamId, organizationId);
      if (!team) throw fail("TEAM_NOT_FOUND", "BAD_REQUEST");
      if (!options.teams?.allowRemovingAllTeams && (await listTeams(ctx, organizationId)).length <= 1) throw fail("UNABLE_TO_REMOVE_LAST_TEAM", "BAD_REQUEST");
      const organization = await findOrganization(adapter, organizationId);
      if (!organization) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
      await options.organizationHooks?.beforeDeleteTeam?.({ team: teamOutput(ctx, team), user: session?.user, organization });
      await adapter.deleteMany({ model: "teamMember", where: [{ field: "teamId", value: team.id }] });
      await adapter.delete({ model: "team", where: [{ field: "id", value: team.id }] });
      for (const invitation of await pendingInvitations(adapter, organizationId)) {
        const ids = invitation.teamId ? invitation.teamId.split(",") : [];
        if (!ids.includes(team.id)) continue;
        const rest = ids.filter((id) => id !== team.id);
        await adapter.update({ model: "invitation", where: [{ field: "id", value: invitation.id }], update: { teamId: rest.length ? rest.join(",") : null } });
      }
      return { team: teamOutput(ctx, team), organization };
    });
    await options.organizationHooks?.afterDeleteTeam?.({ ...outcome, user: session?.user });
    return { message: "Team removed successfully." };
  });
}

/** `POST /organization/update-team` `{ teamId, data: { name?, organizationId?, … } }` (needs `team:update`): the team. */
export function updateTeam(options: ResolvedOrganizationOptions) {
  const data = v.object({
    name: v.optional(v.pipe(v.string(), v.minLength(1))),
    organizationId: v.optional(v.string()),
    ...additionalFieldEntries(options.schema?.team?.additionalFields, true),
  });
  const body = v.object({ teamId: v.string(), data });
  return endpoint("/organization/update-team", { method: "POST", body, requireHeaders: true, use: [sessionMiddleware] }, async (ctx) => {
    const { session, adapter } = ctx.context;
    const organizationId = ctx.body.data.organizationId || activeOrganizationId(session);
    if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
    const permissions = { team: ["update"] };
    const outcome = await withOrganizationLock(ctx, organizationId, async () => {
      await stillAllowed(ctx, options, {
        userId: session.user.id,
        organizationId,
        permissions,
        notMember: ["YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM", "FORBIDDEN"],
        denied: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM",
      });
      const team = await findTeam(ctx, ctx.body.teamId, organizationId);
      if (!team) throw fail("TEAM_NOT_FOUND", "BAD_REQUEST");
      const organization = await findOrganization(adapter, organizationId);
      if (!organization) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
      let updates: Record<string, unknown> = {
        ...(ctx.body.data.name !== undefined ? { name: ctx.body.data.name } : {}),
        ...pickAdditional(ctx.body.data, options.schema?.team?.additionalFields),
      };
      const hooks = options.organizationHooks;
      if (hooks?.beforeUpdateTeam) {
        updates = mergeHookData(updates, await hooks.beforeUpdateTeam({ team: teamOutput(ctx, team), updates, user: session.user, organization }));
      }
      delete updates.id;
      const updated = Object.keys(updates).length
        ? await ctx.context.internalAdapter.update<TeamRow>("team", [{ field: "id", value: team.id }], updates)
        : team;
      return { team: updated ? teamOutput(ctx, updated) : null, organization };
    });
    await options.organizationHooks?.afterUpdateTeam?.({ ...outcome, user: session.user });
    return outcome.team;
  });
}

/** `GET /organization/list-teams?organizationId`: the teams of an organization the caller belongs to. */
export const listOrganizationTeams = endpoint(
  "/organization/list-teams",
  { method: "GET", query: v.optional(v.object({ organizationId: v.optional(v.string()) })), requireHeaders: true, use: [sessionMiddleware] },
  async (ctx) => {
    const { session, adapter } = ctx.context;
    const organizationId = ctx.query?.organizationId || activeOrganizationId(session);
    if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
    if (!(await findMember(adapter, session.user.id, organizationId))) throw fail("YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION", "FORBIDDEN");
    return (await listTeams(ctx, organizationId)).map((team) => teamOutput(ctx, team));
  },
);
