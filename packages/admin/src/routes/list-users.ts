import { endpoint, findPage, toOutput, type Where, type WhereOperator } from "@latchkey/core";
import * as v from "valibot";
import { adminSessionMiddleware, requirePermission } from "../guard.js";
import type { ResolvedAdminOptions } from "../options.js";
import { userFilter, type ListUsersQuery } from "../user-query.js";
import { oneOf } from "./inputs.js";

const OPERATORS = [
  "eq",
  "ne",
  "lt",
  "lte",
  "gt",
  "gte",
  "in",
  "not_in",
  "contains",
  "starts_with",
  "ends_with",
] as const satisfies readonly WhereOperator[];

/** A paging number as a query string or a JSON number (server calls). */
const count = v.union([v.string(), v.number()]);

/**
 * The longest search accepted. A pattern past SQLite's LIKE limit (50,000 bytes) makes the
 * database refuse the query; no stored email or name is searched for with more than this.
 */
const MAX_SEARCH = 1000;

const query = v.object({
  searchValue: v.optional(v.pipe(v.string(), v.maxLength(MAX_SEARCH))),
  searchField: v.optional(oneOf(["email", "name"])),
  searchOperator: v.optional(oneOf(["contains", "starts_with", "ends_with"])),
  limit: v.optional(count),
  offset: v.optional(count),
  sortBy: v.optional(v.string()),
  sortDirection: v.optional(oneOf(["asc", "desc"])),
  filterField: v.optional(v.string()),
  filterValue: v.optional(
    v.union([v.string(), v.number(), v.boolean(), v.array(v.string()), v.array(v.number())]),
  ),
  filterOperator: v.optional(oneOf(OPERATORS)),
});

/**
 * `GET /admin/list-users` (`user:list`): `{ users, total, limit, offset }`. One page is read
 * with the adapter's where, sort, limit and offset, and `total` with its count under the same
 * where (core's `findPage`: no count at all after a short last page, such as a search that
 * finds a few users), so the cost follows the page and the indexes, never the number of users. A search
 * (`searchValue` in `searchField` email|name, `searchOperator` contains|starts_with|ends_with)
 * and a filter (`filterField`, `filterOperator`, `filterValue`) combine with AND.
 */
export const listUsers = (options: ResolvedAdminOptions) =>
  endpoint("/admin/list-users", { method: "GET", query, use: [adminSessionMiddleware] }, async (ctx) => {
    const auth = ctx.context;
    requirePermission(auth.session, { user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS", options);
    const plan = userFilter(auth.schema, ctx.query as ListUsersQuery);
    // The reference's answer when its database refused the query.
    if (plan.matchesNothing) return { users: [], total: 0 };
    const where: Where[] | undefined = plan.where.length ? plan.where : undefined;
    const { rows: users, total } = await findPage(auth.adapter, {
      model: "user",
      ...(where ? { where } : {}),
      ...(plan.limit !== undefined ? { limit: plan.limit } : {}),
      ...(plan.offset !== undefined ? { offset: plan.offset } : {}),
      ...(plan.sortBy ? { sortBy: plan.sortBy } : {}),
    });
    return { users: users.map((u) => toOutput(auth.schema, "user", u)), total, limit: plan.limit, offset: plan.offset };
  });
