import { assertPaging, type FindManyArgs, type FindPageArgs, type Page, type ResolvedModel, type Row } from "@latchkey/core";
import { decodeWith, readPlan } from "./encode.js";
import { run, type Executor } from "./executor.js";
import { fieldOf, modelOf, outputFields } from "./model.js";
import { EMPTY, id, join, raw, sql, table, type Fragment } from "./sql.js";
import { whereClause, whereSql } from "./where.js";

/**
 * `ORDER BY`, `LIMIT` and `OFFSET` of a `findMany` read. `rowid` (SQLite) names a column
 * holding each row's rowid: an unsorted read is ordered by it, and a sorted one breaks ties
 * with it, so the order is total.
 */
export function pageSql(x: Executor, m: ResolvedModel, args: FindManyArgs, rowid?: Fragment): Fragment {
  const { limit, offset } = args;
  // Both are bound as parameters, where mysql2 would expand an object.
  assertPaging(limit, offset);
  // SQLite and MySQL accept OFFSET only after a LIMIT; an offset alone gets "no limit".
  const noLimit = raw(x.type === "sqlite" ? "-1" : "18446744073709551615");
  const limitSql =
    limit !== undefined
      ? sql` LIMIT ${limit}`
      : offset !== undefined && x.type !== "postgres"
        ? sql` LIMIT ${noLimit}`
        : EMPTY;
  const offsetSql = offset !== undefined ? sql` OFFSET ${offset}` : EMPTY;
  return sql`${orderSql(m, args.sortBy, rowid)}${limitSql}${offsetSql}`;
}

function orderSql(m: ResolvedModel, sortBy: FindManyArgs["sortBy"], rowid?: Fragment, on?: string): Fragment {
  const column = (name: string) => (on ? id(on, name) : id(name));
  if (!sortBy) return rowid ? sql` ORDER BY ${rowid}` : EMPTY;
  const direction = raw(sortBy.direction === "desc" ? " DESC" : " ASC");
  const sorted = sql` ORDER BY ${column(fieldOf(m, sortBy.field).fieldName)}${direction}`;
  return rowid ? sql`${sorted}, ${rowid}${direction}` : sorted;
}

/** The rowid of the page's row, under a name no schema column takes. */
const ROWID = "__latchkey_rowid";

/**
 * The adapter's `findPage` on SQLite: the page and its joined rows in one statement, and the
 * total without counting the rows the page already walked past.
 *
 * - `SELECT p.*, j0.… FROM (SELECT *, rowid FROM t WHERE … ORDER BY …, rowid LIMIT ? OFFSET ?)
 *   AS p LEFT JOIN u AS j0 ON j0.id = p.field ORDER BY …`: the page is read first, then one
 *   primary-key lookup per row, where `findMany` with `id IN (…)` sorted a hundred bound ids
 *   first. The order is given again outside: SQLite may flatten a subquery without LIMIT into
 *   the join and drop its ORDER BY. The rowid breaks ties, so both orders are the same.
 * - The total: a page shorter than its limit (and not empty) ends the matches, so it is
 *   `offset + rows`. A full unsorted page is read in rowid order, so every match before it was
 *   skipped by the offset and every match after it has a larger rowid: `offset + limit +
 *   COUNT(… AND rowid > last)`, which walks the index from the page on instead of from the
 *   start (half the rows at the middle of a list). Otherwise `COUNT(…)`.
 */
export function sqlitePage(x: Executor) {
  return async <T extends Row>(args: FindPageArgs): Promise<Page<T>> => {
    const m = modelOf(x.schema, args.model);
    const where = whereSql(m, args.where, x.type, x.flags);
    const byRowid = !args.sortBy && args.limit !== undefined;
    const rowid = raw(`"${ROWID}"`);
    const joins = Object.entries(args.join ?? {}).map(([name, { field, select }], i) => {
      const joined = modelOf(x.schema, name);
      const alias = `__latchkey_j${i}`;
      // Each joined column under its own alias, read back by a plan keyed by those aliases.
      // `id` comes first (outputFields): null there is a row with no match.
      const plan = outputFields(joined, select).map((f, k) => [f, fieldOf(joined, f), `${alias}_${k}`] as const);
      return { name, field, joined, alias, plan };
    });
    const inner = sql`SELECT *, rowid AS ${rowid} FROM ${table(m.tableName)}${whereClause(where)}${pageSql(x, m, args, rowid)}`;
    const picked = joins.flatMap((j) => j.plan.map(([, f, as]) => sql`${id(j.alias, f.fieldName)} AS ${id(as)}`));
    const joinSql = joins.map(
      (j) => sql` LEFT JOIN ${table(j.joined.tableName)} AS ${id(j.alias)} ON ${id(j.alias, "id")} = ${id("p", fieldOf(m, j.field).fieldName)}`,
    );
    const query = joins.length
      ? sql`SELECT ${join([raw(`"p".*`), ...picked])} FROM (${inner}) AS ${id("p")}${join(joinSql, EMPTY)}${orderSql(m, args.sortBy, raw(`"p"."${ROWID}"`), "p")}`
      : inner;
    const found = (await run(x, query)).rows;
    const plan = readPlan(m, args.select);
    const rows = found.map((row) => {
      const out = decodeWith<Row>(plan, row);
      for (const j of joins) out[j.name] = row[j.plan[0]![2]] == null ? null : decodeWith(j.plan, row);
      return out as T;
    });
    const offset = args.offset ?? 0;
    const ended = args.limit === undefined || rows.length < args.limit;
    if (ended && (rows.length > 0 || offset === 0)) return { rows, total: offset + rows.length };
    const count = async (condition: Fragment | null): Promise<number> => {
      const [counted] = (await run(x, sql`SELECT COUNT(*) AS ${id("count")} FROM ${table(m.tableName)}${whereClause(condition)}`)).rows;
      return Number(counted?.count ?? 0);
    };
    if (!byRowid || rows.length === 0) return { rows, total: await count(where) };
    const after = sql`rowid > ${found[found.length - 1]![ROWID]}`;
    return { rows, total: offset + rows.length + (await count(where ? sql`${where} AND ${after}` : after)) };
  };
}
