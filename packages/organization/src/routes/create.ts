import { APIError, endpoint, getSessionFromRequest, sessionMiddleware, type EndpointContext, type User } from "@latchkey/core";
import * as v from "valibot";
import { additionalFieldEntries, pickAdditional } from "../additional-fields.js";
import { mergeHookData } from "../hooks.js";
import { findOrganizationBySlug } from "../member-store.js";
import type { ResolvedOrganizationOptions } from "../options.js";
import { calledWithHeaders, fail, organizationWithMetadata } from "../route-kit.js";
import type { MemberRow, OrganizationRow, TeamMemberRow, TeamRow } from "../rows.js";
import { joinTeam } from "../team-seats.js";

/**
 * Bounds of the two sortable columns, the widths MySQL stores them in (`varchar(255)`, and
 * `varchar(191)` for the unique slug): a longer value is refused with 400 everywhere rather
 * than stored on one database and a 500 on another (DIVERGENCES.md row 70).
 */
export const organizationName = v.pipe(v.string(), v.minLength(1), v.maxLength(255));
export const organizationSlug = v.pipe(v.string(), v.minLength(1), v.maxLength(191));

/** Who creates: the session's user, or (server call without headers) the body's `userId`. */
async function creator(ctx: EndpointContext, userId: string | undefined) {
  const session = await getSessionFromRequest(ctx);
  if (!session && calledWithHeaders(ctx)) throw new APIError("UNAUTHORIZED");
  if (session) return { session, user: session.user };
  if (!userId) throw new APIError("UNAUTHORIZED");
  const user = await ctx.context.internalAdapter.findUserById(userId);
  if (!user) throw new APIError("UNAUTHORIZED");
  return { session: null, user };
}

async function mayCreate(options: ResolvedOrganizationOptions, user: User): Promise<boolean> {
  const allow = options.allowUserToCreateOrganization;
  return typeof allow === "function" ? allow(user) : allow !== false;
}

async function limitReached(ctx: EndpointContext, options: ResolvedOrganizationOptions, user: User): Promise<boolean> {
  const limit = options.organizationLimit;
  if (typeof limit === "function") return limit(user);
  if (typeof limit !== "number") return false;
  const count = await ctx.context.adapter.count({ model: "member", where: [{ field: "userId", value: user.id }] });
  return count >= limit;
}

/**
 * `POST /organization/create`: the organization, its creator as a member with `creatorRole`,
 * and with teams a default team the creator joins; the new organization (and team) become the
 * session's active ones unless `keepCurrentActiveOrganization`. A server call without headers
 * creates for `userId` and skips `allowUserToCreateOrganization`.
 */
export function createOrganization(options: ResolvedOrganizationOptions) {
  const body = v.object({
    name: organizationName,
    slug: organizationSlug,
    userId: v.optional(v.union([v.string(), v.pipe(v.number(), v.transform(String))])),
    logo: v.nullish(v.string()),
    metadata: v.optional(v.record(v.string(), v.unknown())),
    keepCurrentActiveOrganization: v.optional(v.boolean()),
    ...additionalFieldEntries(options.schema?.organization?.additionalFields),
  });
  return endpoint("/organization/create", { method: "POST", body }, async (ctx) => {
    const { session, user } = await creator(ctx, ctx.body.userId);
    const systemAction = !session && !!ctx.body.userId;
    if (!(await mayCreate(options, user)) && !systemAction) throw fail("YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION", "FORBIDDEN");
    if (await limitReached(ctx, options, user)) throw fail("YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS", "FORBIDDEN");
    const { adapter, internalAdapter } = ctx.context;
    if (await findOrganizationBySlug(adapter, ctx.body.slug)) throw fail("ORGANIZATION_ALREADY_EXISTS", "BAD_REQUEST");
    const hooks = options.organizationHooks;
    let data: Record<string, unknown> = {
      name: ctx.body.name,
      slug: ctx.body.slug,
      ...(ctx.body.logo !== undefined ? { logo: ctx.body.logo } : {}),
      ...(ctx.body.metadata ? { metadata: ctx.body.metadata } : {}),
      ...pickAdditional(ctx.body, options.schema?.organization?.additionalFields),
    };
    if (hooks?.beforeCreateOrganization) data = mergeHookData(data, await hooks.beforeCreateOrganization({ organization: data, user }));
    const metadata = data.metadata && typeof data.metadata === "object" ? JSON.stringify(data.metadata) : data.metadata;
    let organization: OrganizationRow | null;
    try {
      organization = await internalAdapter.create<OrganizationRow>("organization", { ...data, metadata, createdAt: new Date() });
    } catch (error) {
      // Two creations with one slug: the unique index lets one through; the other is told so.
      if (await findOrganizationBySlug(adapter, ctx.body.slug)) throw fail("ORGANIZATION_ALREADY_EXISTS", "BAD_REQUEST");
      throw error;
    }
    if (!organization) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
    let memberData: Record<string, unknown> = { userId: user.id, organizationId: organization.id, role: options.creatorRole };
    if (hooks?.beforeAddMember) {
      memberData = mergeHookData(memberData, await hooks.beforeAddMember({ member: memberData, user, organization }));
    }
    const member = (await internalAdapter.create<MemberRow>("member", { ...memberData, createdAt: new Date() }))!;
    await hooks?.afterAddMember?.({ member, user, organization });
    const teamMember = options.teamsEnabled && options.teams?.defaultTeam?.enabled !== false
      ? await createDefaultTeam(ctx, options, organization, user)
      : null;
    await hooks?.afterCreateOrganization?.({ organization, user, member });
    if (session && !ctx.body.keepCurrentActiveOrganization) {
      const update: Record<string, unknown> = { activeOrganizationId: organization.id };
      if (teamMember) update.activeTeamId = teamMember.teamId;
      await internalAdapter.updateSession(session.session.token, update);
    }
    return { ...organizationWithMetadata(ctx, organization), members: [member] };
  });
}

/** The default team, named after the organization, with the creator in it. */
async function createDefaultTeam(
  ctx: EndpointContext,
  options: ResolvedOrganizationOptions,
  organization: OrganizationRow,
  user: User,
): Promise<TeamMemberRow> {
  const hooks = options.organizationHooks;
  let teamData: Record<string, unknown> = { organizationId: organization.id, name: organization.name, createdAt: new Date() };
  if (hooks?.beforeCreateTeam) {
    const answer = await hooks.beforeCreateTeam({ team: { organizationId: organization.id, name: organization.name }, user, organization });
    teamData = mergeHookData(teamData, answer);
  }
  const custom = await options.teams?.defaultTeam?.customCreateDefaultTeam?.(organization, ctx);
  const team = custom ?? (await ctx.context.internalAdapter.create<TeamRow>("team", { ...teamData, memberCount: 0 }))!;
  const joined = await joinTeam(ctx.context.adapter, { teamId: team.id, userId: user.id }, async (data) =>
    (await ctx.context.internalAdapter.create<TeamMemberRow>("teamMember", data))!,
  );
  await hooks?.afterCreateTeam?.({ team, user, organization });
  if (joined.status !== "added") throw fail("TEAM_MEMBER_LIMIT_REACHED", "FORBIDDEN");
  return joined.member;
}

/** `POST /organization/check-slug`: `{ status: true }` when free; taken → 400. */
export const checkOrganizationSlug = endpoint(
  "/organization/check-slug",
  { method: "POST", body: v.object({ slug: v.string() }) },
  async (ctx) => {
    // Reference: a session is required only when the call carries a request.
    if (ctx.request) await sessionMiddleware(ctx);
    if (await findOrganizationBySlug(ctx.context.adapter, ctx.body.slug)) throw fail("ORGANIZATION_SLUG_ALREADY_TAKEN", "BAD_REQUEST");
    return { status: true };
  },
);
