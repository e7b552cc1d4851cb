import { comparableWhere, type ResolvedField, type ResolvedModel, type Where } from "@latchkey/core";
import type { DatabaseType } from "./database-type.js";
import { encodeValue } from "./encode.js";
import { fieldOf } from "./model.js";
import { flagColumn, partialIndexFor, type FlagColumns } from "./partial-index.js";
import { EMPTY, id, join, raw, sql, type Fragment } from "./sql.js";

type Condition = Fragment;

const TRUE: Condition = sql`1 = 1`;
const FALSE: Condition = sql`1 = 0`;

/** `%`, `_` and the escape character itself are matched literally (`ESCAPE '!'` works on all three dialects). */
export const escapeLike = (text: string): string => text.replace(/[!%_]/g, (c) => `!${c}`);

function like(column: unknown, pattern: string): Condition {
  return sql`${column} LIKE ${pattern} ESCAPE '!'`;
}

/** A LIKE pattern as an SQL string literal (quotes doubled, as SQLite reads them). */
const sqliteLiteral = (pattern: string): Fragment => raw(`'${pattern.replace(/'/g, "''")}'`);

/**
 * A `contains` clause that is the predicate of one of the model's partial indexes, written so
 * the dialect's planner can use that index (see partial-index.ts); `null` when it is not one.
 */
function indexedContains(
  model: ResolvedModel,
  where: Where,
  column: unknown,
  pattern: string,
  type: DatabaseType,
  flags: FlagColumns | undefined,
): Condition | null {
  if (type === "postgres") return null;
  const index = partialIndexFor(model, where);
  if (!index) return null;
  if (type === "sqlite") return sql`${column} LIKE ${sqliteLiteral(pattern)} ESCAPE '!'`;
  const flag = flagColumn(index);
  return flags?.has(model.tableName, flag) ? sql`${id(flag)} = 1 AND ${like(column, pattern)}` : null;
}

function clause(
  model: ResolvedModel,
  where: Where,
  field: ResolvedField,
  type: DatabaseType,
  flags: FlagColumns | undefined,
): Condition {
  const column = id(field.fieldName);
  const op = where.operator ?? "eq";
  const encode = (v: unknown): unknown => encodeValue(field, v, type);
  if (where.value === null && (op === "eq" || op === "ne")) {
    return op === "eq" ? sql`${column} IS NULL` : sql`${column} IS NOT NULL`;
  }
  switch (op) {
    case "eq":
      return sql`${column} = ${encode(where.value)}`;
    case "ne":
      return sql`${column} <> ${encode(where.value)}`;
    case "lt":
      return sql`${column} < ${encode(where.value)}`;
    case "lte":
      return sql`${column} <= ${encode(where.value)}`;
    case "gt":
      return sql`${column} > ${encode(where.value)}`;
    case "gte":
      return sql`${column} >= ${encode(where.value)}`;
    case "in":
    case "not_in": {
      const values: unknown[] = Array.isArray(where.value) ? where.value : [where.value];
      // An empty list matches nothing (`in`) or everything (`not_in`); `IN ()` is a syntax error.
      if (values.length === 0) return op === "in" ? FALSE : TRUE;
      const list = join(values.map(encode));
      return op === "in" ? sql`${column} IN (${list})` : sql`${column} NOT IN (${list})`;
    }
    case "contains":
    case "starts_with":
    case "ends_with": {
      const text = escapeLike(String(where.value));
      const pattern = op === "contains" ? `%${text}%` : op === "starts_with" ? `${text}%` : `%${text}`;
      if (op === "contains") {
        const indexed = indexedContains(model, where, column, pattern, type, flags);
        if (indexed) return indexed;
      }
      // PostgreSQL has no LIKE on jsonb: match the JSON text of lists and objects.
      const structured = field.type === "json" || field.type === "string[]" || field.type === "number[]";
      return like(type === "postgres" && structured ? sql`CAST(${column} AS text)` : column, pattern);
    }
  }
}

/**
 * Builds the WHERE condition: every AND clause must hold and, when OR clauses exist, at least
 * one of them (the reference's Kysely adapter groups clauses the same way). `null` for no clauses.
 */
export function whereSql(
  model: ResolvedModel,
  where: Where[] | undefined,
  type: DatabaseType,
  flags?: FlagColumns,
): Condition | null {
  if (!where?.length) return null;
  const build = (w: Where): Condition => {
    const field = fieldOf(model, w.field);
    // Refused before any SQL exists: mysql2 would expand an object into `key = value` pairs.
    const checked = comparableWhere(model.model, w, field);
    if (typeof checked === "boolean") return raw(checked ? "1 = 1" : "1 = 0");
    return clause(model, checked, field, type, flags);
  };
  const ands = where.filter((w) => w.connector !== "OR").map(build);
  const ors = where.filter((w) => w.connector === "OR").map(build);
  const parts = [...ands.map((c) => sql`(${c})`)];
  if (ors.length)
    parts.push(
      sql`(${join(
        ors.map((c) => sql`(${c})`),
        raw(" OR "),
      )})`,
    );
  return join(parts, raw(" AND "));
}

/** ` WHERE …` or nothing. */
export function whereClause(condition: Condition | null): Condition {
  return condition ? sql` WHERE ${condition}` : EMPTY;
}
