import { endpoint, fail as coreFail, getSessionFromRequest, sessionMiddleware, type Adapter } from "@latchkey/core";
import * as v from "valibot";
import { additionalFieldEntries, pickAdditional } from "../additional-fields.js";
import { mergeHookData } from "../hooks.js";
import { countCreators, deleteMember, findMember, findMemberByEmail, findOrganization, withUser } from "../member-store.js";
import { membershipLimitReached, seatLimit } from "../limits.js";
import { withOrganizationLock } from "../org-lock.js";
import type { ResolvedOrganizationOptions } from "../options.js";
import { hasPermission } from "../permission.js";
import { activeOrganizationId, fail, messageError } from "../route-kit.js";
import type { MemberRow, TeamMemberRow, TeamRow } from "../rows.js";
import { joinTeam } from "../team-seats.js";

const roleInput = v.union([v.string(), v.array(v.string())]);
const userIdInput = v.union([v.string(), v.pipe(v.number(), v.transform(String))]);

/** A role list as stored: `["admin", "member"]` → `"admin,member"`. */
export const storedRole = (role: string | string[]): string => (Array.isArray(role) ? role.join(",") : role);

/**
 * Server-only `auth.api.addMember({ body: { userId, role, organizationId?, teamId? } })`: adds
 * a user directly (no invitation, no permission check: the caller authorizes). The membership
 * limit, the duplicate check and the team seat are decided under the organization lock.
 */
export function addMember(options: ResolvedOrganizationOptions) {
  const body = v.object({
    userId: userIdInput,
    role: roleInput,
    organizationId: v.optional(v.string()),
    teamId: v.optional(v.string()),
    ...additionalFieldEntries(options.schema?.member?.additionalFields),
  });
  return endpoint("/organization/add-member", { method: "POST", body, serverOnly: true }, async (ctx) => {
    const session = ctx.body.userId ? await getSessionFromRequest(ctx).catch(() => null) : null;
    const organizationId = ctx.body.organizationId || activeOrganizationId(session);
    if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
    const { teamId } = ctx.body;
    if (teamId && !options.teamsEnabled) throw messageError("BAD_REQUEST", "Teams are not enabled");
    const { internalAdapter, adapter } = ctx.context;
    const user = await internalAdapter.findUserById(ctx.body.userId);
    if (!user) throw coreFail("BAD_REQUEST", "USER_NOT_FOUND");
    const role = storedRole(ctx.body.role);
    const additional = pickAdditional(ctx.body, options.schema?.member?.additionalFields);
    const created = await withOrganizationLock(ctx, organizationId, async () => {
      if (await findMember(adapter, user.id, organizationId)) throw fail("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION", "BAD_REQUEST");
      const team = teamId ? await findTeam(ctx, teamId, organizationId) : null;
      if (teamId && !team) throw fail("TEAM_NOT_FOUND", "BAD_REQUEST");
      const organization = await findOrganization(adapter, organizationId);
      if (!organization) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
      if (await membershipLimitReached(ctx, options, user, organization)) throw fail("ORGANIZATION_MEMBERSHIP_LIMIT_REACHED", "FORBIDDEN");
      let data: Record<string, unknown> = { organizationId, userId: user.id, role, ...additional };
      const hooks = options.organizationHooks;
      if (hooks?.beforeAddMember) {
        data = mergeHookData(data, await hooks.beforeAddMember({ member: { userId: user.id, organizationId, role, ...additional }, user, organization }));
      }
      const member = (await internalAdapter.create<MemberRow>("member", { ...data, createdAt: new Date() }))!;
      if (team) {
        const maximum = await seatLimit(options, { teamId: team.id, organizationId, session });
        const joined = await joinTeam(adapter, { teamId: team.id, userId: user.id, maximum }, createTeamMember(ctx));
        // Thrown inside the lock's transaction: the member row written above is rolled back too.
        if (joined.status === "limitReached") throw fail("TEAM_MEMBER_LIMIT_REACHED", "FORBIDDEN");
      }
      return { member, organization };
    });
    await options.organizationHooks?.afterAddMember?.({ member: created.member, user, organization: created.organization });
    return created.member;

  });
}

/** Writes a `teamMember` row through the internal adapter (ids, defaults, database hooks). */
export const createTeamMember =
  (ctx: { context: { internalAdapter: { create: <T>(model: string, data: Record<string, unknown>) => Promise<T | null> } } }) =>
  async (data: Record<string, unknown>): Promise<TeamMemberRow> =>
    (await ctx.context.internalAdapter.create<TeamMemberRow>("teamMember", data))!;

/** The team `teamId` of `organizationId`, or null. */
export function findTeam(ctx: { context: { adapter: Adapter } }, teamId: string, organizationId?: string) {
  return ctx.context.adapter.findOne<TeamRow>({
    model: "team",
    where: [{ field: "id", value: teamId }, ...(organizationId ? [{ field: "organizationId", value: organizationId }] : [])],
  });
}

/**
 * `POST /organization/remove-member` `{ memberIdOrEmail, organizationId? }` (needs
 * `member:delete`): removes a member (a value with `@` is an email) and their team seats.
 * The last holder of the creator role cannot be removed. Decided under the organization
 * lock, so two removals racing each other cannot both pass the "another owner remains"
 * check. A caller without the permission gets 403 (the reference: 401, DIVERGENCES.md row 69).
 */
export function removeMember(options: ResolvedOrganizationOptions) {
  const body = v.object({ memberIdOrEmail: v.string(), organizationId: v.optional(v.string()) });
  return endpoint("/organization/remove-member", { method: "POST", body, requireHeaders: true, use: [sessionMiddleware] }, async (ctx) => {
    const { session, adapter, internalAdapter } = ctx.context;
    const organizationId = ctx.body.organizationId || activeOrganizationId(session);
    if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
    const removed = await withOrganizationLock(ctx, organizationId, async () => {
      const member = await findMember(adapter, session.user.id, organizationId);
      if (!member) throw fail("MEMBER_NOT_FOUND", "BAD_REQUEST");
      const key = ctx.body.memberIdOrEmail;
      const target = key.includes("@")
        ? await findMemberByEmail(adapter, key, organizationId)
        : await adapter.findOne<MemberRow>({ model: "member", where: [{ field: "id", value: key }] });
      if (!target) throw fail("MEMBER_NOT_FOUND", "BAD_REQUEST");
      // Reference: a member found by email is answered with its user, one found by id without.
      const { user: _user, ...toRemove } = target as MemberRow & { user?: unknown };
      if (toRemove.role.split(",").includes(options.creatorRole)) {
        if (!member.role.split(",").map((r) => r.trim()).includes(options.creatorRole)) {
          throw fail("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER", "BAD_REQUEST");
        }
        if ((await countCreators(adapter, options, organizationId)) <= 1) {
          throw fail("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER", "BAD_REQUEST");
        }
      }
      const may = await hasPermission(adapter, options, { role: member.role, organizationId, permissions: { member: ["delete"] } });
      if (!may) throw fail("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER", "FORBIDDEN");
      if (toRemove.organizationId !== organizationId) throw fail("MEMBER_NOT_FOUND", "BAD_REQUEST");
      const organization = await findOrganization(adapter, organizationId);
      if (!organization) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
      const user = await internalAdapter.findUserById(toRemove.userId);
      if (!user) throw messageError("BAD_REQUEST", "User not found");
      await options.organizationHooks?.beforeRemoveMember?.({ member: toRemove as MemberRow, user, organization });
      await deleteMember(adapter, options, toRemove as MemberRow);
      return { member: toRemove as MemberRow, answered: target as MemberRow, user, organization };
    });
    if (session.user.id === removed.member.userId && activeOrganizationId(session) === organizationId) {
      await internalAdapter.updateSession(session.session.token, { activeOrganizationId: null });
    }
    await options.organizationHooks?.afterRemoveMember?.({ member: removed.member, user: removed.user, organization: removed.organization });
    return { member: removed.answered };
  });
}

/**
 * `POST /organization/leave` `{ organizationId }`: the caller leaves (and their team seats go
 * back); the last holder of the creator role cannot. Answers the removed member.
 */
export function leaveOrganization(options: ResolvedOrganizationOptions) {
  const body = v.object({ organizationId: v.string() });
  return endpoint("/organization/leave", { method: "POST", body, requireHeaders: true, use: [sessionMiddleware] }, async (ctx) => {
    const { session, adapter, internalAdapter } = ctx.context;
    const { organizationId } = ctx.body;
    const member = await withOrganizationLock(ctx, organizationId, async () => {
      const found = await findMember(adapter, session.user.id, organizationId);
      if (!found) throw fail("MEMBER_NOT_FOUND", "BAD_REQUEST");
      if (found.role.split(",").includes(options.creatorRole) && (await countCreators(adapter, options, organizationId)) <= 1) {
        throw fail("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER", "BAD_REQUEST");
      }
      await deleteMember(adapter, options, found);
      return withUser(adapter, found);
    });
    if (activeOrganizationId(session) === organizationId) {
      await internalAdapter.updateSession(session.session.token, { activeOrganizationId: null });
    }
    return member;
  });
}

