import {
  endpoint,
  joinRows,
  sessionMiddleware,
  setSessionCookie,
  toOutput,
  type EndpointContext,
  type ResolvedSchema,
  type Session,
  type SessionWithUser,
  type User,
} from "@latchkey/core";
import * as v from "valibot";
import { findMember, findOrganization, findOrganizationBySlug, memberUser, type MemberUser, type MemberWithUser } from "../member-store.js";
import type { ResolvedOrganizationOptions } from "../options.js";
import { activeOrganizationId, fail, organizationOutput } from "../route-kit.js";
import type { InvitationRow, MemberRow, OrganizationRow, TeamRow } from "../rows.js";

/** Writes the session's active organization (and/or team) and re-issues its cookies. */
export async function setActive(
  ctx: EndpointContext,
  session: SessionWithUser,
  update: { activeOrganizationId?: string | null; activeTeamId?: string | null },
): Promise<void> {
  const stored = await ctx.context.internalAdapter.updateSession(session.session.token, update);
  const next: Session = stored ?? { ...session.session, ...update };
  await setSessionCookie(ctx, { session: next, user: session.user });
}

/** Clears a stale active organization and refuses: the caller is not a member (reference). */
async function refuseNonMember(ctx: EndpointContext, session: SessionWithUser): Promise<never> {
  await ctx.context.internalAdapter.updateSession(session.session.token, { activeOrganizationId: null });
  throw fail("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", "FORBIDDEN");
}

/**
 * `POST /organization/set-active` `{ organizationId? | organizationSlug? }`: makes an
 * organization the caller belongs to the active one and answers it; `organizationId: null`
 * unsets it (answers null); neither given answers the current one.
 */
export const setActiveOrganization = endpoint(
  "/organization/set-active",
  {
    method: "POST",
    body: v.object({ organizationId: v.nullish(v.string()), organizationSlug: v.optional(v.string()) }),
    requireHeaders: true,
    use: [sessionMiddleware],
  },
  async (ctx) => {
    const { session } = ctx.context;
    const { adapter } = ctx.context;
    if (ctx.body.organizationId === null) {
      if (!activeOrganizationId(session)) return null;
      await setActive(ctx, session, { activeOrganizationId: null });
      return null;
    }
    let organizationId = ctx.body.organizationId || null;
    if (!organizationId && !ctx.body.organizationSlug) {
      organizationId = activeOrganizationId(session);
      if (!organizationId) return null;
    }
    if (ctx.body.organizationSlug && !organizationId) {
      const bySlug = await findOrganizationBySlug(adapter, ctx.body.organizationSlug);
      if (!bySlug) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
      organizationId = bySlug.id;
    }
    if (!organizationId) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
    if (!(await findMember(adapter, session.user.id, organizationId))) await refuseNonMember(ctx, session);
    const organization = await findOrganization(adapter, organizationId);
    if (!organization) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
    await setActive(ctx, session, { activeOrganizationId: organization.id });
    return organizationOutput(ctx, organization);
  },
);

/**
 * The organization a read names (slug, then id, then the active one), or null when none is
 * named; 400 when it does not exist, 403 (and the active organization cleared) when the caller
 * is not a member.
 */
async function readableOrganization(
  ctx: EndpointContext,
  session: SessionWithUser,
  query: { organizationId?: string | undefined; organizationSlug?: string | undefined } | undefined,
): Promise<OrganizationRow | null> {
  const { adapter } = ctx.context;
  const slug = query?.organizationSlug;
  const key = slug || query?.organizationId || activeOrganizationId(session);
  if (!key) return null;
  const organization = slug ? await findOrganizationBySlug(adapter, key) : await findOrganization(adapter, key);
  if (!organization) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
  if (!(await findMember(adapter, session.user.id, organization.id))) await refuseNonMember(ctx, session);
  return organization;
}

const orgQuery = v.optional(v.object({ organizationId: v.optional(v.string()), organizationSlug: v.optional(v.string()) }));

/** `GET /organization/get-organization`: the given (or active) organization, or null. */
export const getOrganization = endpoint(
  "/organization/get-organization",
  { method: "GET", query: orgQuery, requireHeaders: true, use: [sessionMiddleware] },
  async (ctx) => {
    const organization = await readableOrganization(ctx, ctx.context.session, ctx.query);
    return organization && organizationOutput(ctx, organization);
  },
);

/**
 * `GET /organization/get-full-organization`: the organization with its invitations, members
 * (each with `user`) and, with teams, teams; null without an active organization.
 */
export function getFullOrganization(options: ResolvedOrganizationOptions) {
  const query = v.optional(
    v.object({
      organizationId: v.optional(v.string()),
      organizationSlug: v.optional(v.string()),
      membersLimit: v.optional(v.union([v.number(), v.pipe(v.string(), v.transform((s) => Number.parseInt(s, 10)))])),
    }),
  );
  return endpoint(
    "/organization/get-full-organization",
    { method: "GET", query, requireHeaders: true, use: [sessionMiddleware] },
    async (ctx) => {
      const { session, adapter, schema } = ctx.context;
      const organization = await readableOrganization(ctx, session, ctx.query);
      if (!organization) return null;
      const inOrg = [{ field: "organizationId", value: organization.id }];
      const requested = ctx.query?.membersLimit;
      const fallback = typeof options.membershipLimit === "number" ? options.membershipLimit : 100;
      const limit = requested && Number.isFinite(requested) && requested > 0 ? requested : fallback || 100;
      const [invitations, members, teams] = await Promise.all([
        adapter.findMany<InvitationRow>({ model: "invitation", where: inOrg }),
        adapter.findMany<MemberRow>({ model: "member", where: inOrg, limit }),
        options.teamsEnabled ? adapter.findMany<TeamRow>({ model: "team", where: inOrg }) : undefined,
      ]);
      return {
        ...(organizationOutput(ctx, organization) as OrganizationRow),
        invitations: invitations.map((row) => toOutput(schema, "invitation", row)),
        members: await membersWithUsers(ctx, members),
        teams: teams?.map((row) => toOutput(schema, "team", row)),
      };
    },
  );
}

/** The user columns a member answer nests: read alone, the rest of the row is never decoded. */
export const MEMBER_USER_FIELDS = ["id", "name", "email", "image"];

/** Members with `user: { id, name, email, image }`, the users read in one query. */
export async function membersWithUsers(ctx: EndpointContext, members: MemberRow[]) {
  const { adapter, schema } = ctx.context;
  const rows = await joinRows<MemberRow & { user: User | null }>(adapter, members, { user: { field: "userId", select: MEMBER_USER_FIELDS } });
  return pageMembers(schema, rows);
}

/**
 * Member rows just read (owned by the caller, changed in place), each carrying its user or
 * null, as member answers: `user` as `{ id, name, email, image }`, hidden member fields left
 * out, members whose user is gone skipped.
 */
export function pageMembers(schema: ResolvedSchema, rows: Array<MemberRow & { user: User | MemberUser | null }>): MemberWithUser[] {
  // Pages run to hundreds of rows: decide once whether any member field is hidden.
  const hidden = Object.values(schema.member?.fields ?? {}).some((field) => field.returned === false);
  const out: MemberWithUser[] = [];
  for (const row of rows) {
    if (!row.user) continue;
    // `user` is the row's last key already: replaced where it stands, no copy of the row.
    row.user = memberUser(row.user);
    out.push((hidden ? toOutput(schema, "member", row) : row) as MemberWithUser);
  }
  return out;
}

/** `GET /organization/list`: the organizations the caller belongs to. */
export const listOrganizations = endpoint(
  "/organization/list",
  { method: "GET", requireHeaders: true, use: [sessionMiddleware] },
  async (ctx) => {
    const { session, adapter } = ctx.context;
    const memberships = await adapter.findMany<MemberRow>({ model: "member", where: [{ field: "userId", value: session.user.id }] });
    if (!memberships.length) return [];
    const ids = [...new Set(memberships.map((m) => m.organizationId))];
    const organizations = await adapter.findMany<OrganizationRow>({
      model: "organization",
      where: [{ field: "id", value: ids, operator: "in" }],
      limit: ids.length,
    });
    const byId = new Map(organizations.map((o) => [o.id, o]));
    return memberships.flatMap((m) => {
      const organization = byId.get(m.organizationId);
      return organization ? [organizationOutput(ctx, organization)] : [];
    });
  },
);
