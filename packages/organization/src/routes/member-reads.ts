import {
  APIError,
  BetterAuthError,
  endpoint,
  findPage,
  sessionMiddleware,
  toOutput,
  type Adapter,
  type User,
  type Where,
  type WhereOperator,
} from "@latchkey/core";
import * as v from "valibot";
import { findMember, findOrganizationBySlug, withUser } from "../member-store.js";
import type { ResolvedOrganizationOptions } from "../options.js";
import { activeOrganizationId, fail } from "../route-kit.js";
import type { MemberRow } from "../rows.js";
import { MEMBER_USER_FIELDS, pageMembers } from "./active.js";

/** `GET /organization/get-active-member`: the caller's member row in the active organization, with `user`. */
export const getActiveMember = endpoint(
  "/organization/get-active-member",
  { method: "GET", requireHeaders: true, use: [sessionMiddleware] },
  async (ctx) => {
    const { session, adapter, schema } = ctx.context;
    const organizationId = activeOrganizationId(session);
    if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
    const member = await withUser(adapter, await findMember(adapter, session.user.id, organizationId));
    if (!member) throw fail("MEMBER_NOT_FOUND", "BAD_REQUEST");
    return { ...toOutput(schema, "member", member), user: member.user };
  },
);

const orgSelector = {
  organizationId: v.optional(v.string()),
  organizationSlug: v.optional(v.string()),
};

/** The organization a read names (slug first, then id, then the active one), or a 400. */
async function targetOrganization(
  ctx: { context: { adapter: Adapter } },
  query: { organizationId?: string | undefined; organizationSlug?: string | undefined } | undefined,
  active: string | null,
): Promise<string> {
  let organizationId = query?.organizationId || active;
  if (query?.organizationSlug) {
    const organization = await findOrganizationBySlug(ctx.context.adapter, query.organizationSlug);
    if (!organization) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
    organizationId = organization.id;
  }
  if (!organizationId) throw fail("NO_ACTIVE_ORGANIZATION", "BAD_REQUEST");
  return organizationId;
}

/** `GET /organization/get-active-member-role` `?userId&organizationId&organizationSlug`: `{ role }`. */
export const getActiveMemberRole = endpoint(
  "/organization/get-active-member-role",
  { method: "GET", query: v.optional(v.object({ userId: v.optional(v.string()), ...orgSelector })), requireHeaders: true, use: [sessionMiddleware] },
  async (ctx) => {
    const { session, adapter } = ctx.context;
    const organizationId = await targetOrganization(ctx, ctx.query, activeOrganizationId(session));
    const own = await findMember(adapter, session.user.id, organizationId);
    if (!own) throw fail("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION", "FORBIDDEN");
    if (!ctx.query?.userId) return { role: own.role };
    const other = await findMember(adapter, ctx.query.userId, organizationId);
    if (!other) throw fail("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION", "FORBIDDEN");
    return { role: other.role };
  },
);

const OPERATORS = ["eq", "ne", "lt", "lte", "gt", "gte", "in", "not_in", "contains", "starts_with", "ends_with"] as const;
const scalar = v.union([v.string(), v.number(), v.boolean()]);

/** A 400 for a list query the database cannot run (unknown field, value of the wrong kind, bad paging). */
const badListQuery = (message: string): APIError => new APIError("BAD_REQUEST", { code: "VALIDATION_ERROR", message });

/**
 * `GET /organization/list-members`: `{ members, total }`, a page of the organization's members
 * (each with `user`), filtered and sorted on member fields; the page defaults to
 * `membershipLimit` (100). Only members may list.
 */
export function listMembers(options: ResolvedOrganizationOptions) {
  const query = v.optional(
    v.object({
      limit: v.optional(v.union([v.string(), v.number()])),
      offset: v.optional(v.union([v.string(), v.number()])),
      sortBy: v.optional(v.string()),
      sortDirection: v.optional(v.picklist(["asc", "desc"])),
      filterField: v.optional(v.string()),
      filterValue: v.optional(v.union([scalar, v.array(v.string()), v.array(v.number())])),
      filterOperator: v.optional(v.picklist(OPERATORS)),
      ...orgSelector,
    }),
  );
  return endpoint("/organization/list-members", { method: "GET", query, requireHeaders: true, use: [sessionMiddleware] }, async (ctx) => {
    const { session, adapter, schema } = ctx.context;
    const q = ctx.query;
    const organizationId = await targetOrganization(ctx, q, activeOrganizationId(session));
    if (!(await findMember(adapter, session.user.id, organizationId))) throw fail("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION", "FORBIDDEN");
    const fields = new Set(["id", ...Object.keys(schema.member?.fields ?? {})]);
    const where: Where[] = [{ field: "organizationId", value: organizationId }];
    if (q?.filterField) {
      if (!fields.has(q.filterField)) throw badListQuery("[query.filterField] Unknown field");
      const operator: WhereOperator = q.filterOperator ?? "eq";
      let value = q.filterValue ?? null;
      if ((operator === "in" || operator === "not_in") && !Array.isArray(value)) value = value === null ? [] : [String(value)];
      where.push({ field: q.filterField, value: value as Where["value"], operator });
    }
    if (q?.sortBy && !fields.has(q.sortBy)) throw badListQuery("[query.sortBy] Unknown field");
    const fallback = typeof options.membershipLimit === "number" ? options.membershipLimit : 100;
    const limit = q?.limit ? Number(q.limit) : fallback || 100;
    const offset = q?.offset ? Number(q.offset) : 0;
    try {
      // The page with each member's user, and the count of every match (two statements on SQLite).
      const { rows, total } = await findPage<MemberRow & { user: User | null }>(adapter, {
        model: "member",
        where,
        limit,
        offset,
        ...(q?.sortBy ? { sortBy: { field: q.sortBy, direction: q.sortDirection ?? "asc" } } : {}),
        join: { user: { field: "userId", select: MEMBER_USER_FIELDS } },
      });
      return { members: pageMembers(schema, rows), total };
    } catch (error) {
      // The filter and paging come from the query: a value the column cannot hold is the
      // caller's mistake, not a server error.
      if (error instanceof BetterAuthError) throw badListQuery("Invalid filter or paging");
      throw error;
    }
  });
}
