import type { ResolvedModel, Row } from "@latchkey/core";
import { run, type Executor } from "./executor.js";
import type { Runner } from "./runners/runner.js";
import { id, join, sql, table as tableId, type Fragment } from "./sql.js";
import { whereClause } from "./where.js";

type Condition = Fragment | null;

/** Column assignments of an UPDATE, already encoded. */
export type Assignments = Fragment[];

const ID = id("id");

/** `<where> AND id IN (SELECT id … LIMIT 1)`: picks one matching row and re-checks the guard on it. */
function oneOf(model: ResolvedModel, where: Condition): Fragment {
  const table = tableId(model.tableName);
  const pick = sql`${ID} IN (SELECT ${ID} FROM ${table}${whereClause(where)} LIMIT 1)`;
  return where ? sql`(${where}) AND ${pick}` : pick;
}

/**
 * Locks one matching row on MySQL (`SELECT … FOR UPDATE` inside a transaction) and returns it.
 * MySQL has no RETURNING and refuses a subquery on the table being changed, so the
 * single-row operations there lock first, then act on the locked id.
 */
async function lockOne(x: Executor, trx: Runner, model: ResolvedModel, where: Condition): Promise<Row | null> {
  const table = tableId(model.tableName);
  const [row] = (await run(x, sql`SELECT * FROM ${table}${whereClause(where)} LIMIT 1 FOR UPDATE`, trx)).rows;
  return row ?? null;
}

async function byId(x: Executor, trx: Runner, model: ResolvedModel, key: unknown): Promise<Row | null> {
  const [row] = (await run(x, sql`SELECT * FROM ${tableId(model.tableName)} WHERE ${ID} = ${key}`, trx)).rows;
  return row ?? null;
}

/**
 * Applies `set` to one row matching `where` and returns the row as stored afterwards. On
 * SQLite and PostgreSQL it is one UPDATE … RETURNING: PostgreSQL re-evaluates `where` on the
 * newest row version after waiting for a concurrent writer, so a guard such as
 * `count < max` can never be overshot.
 */
export async function updateOne(
  x: Executor,
  model: ResolvedModel,
  where: Condition,
  set: Assignments,
): Promise<Row | null> {
  const table = tableId(model.tableName);
  const assignments = join(set);
  if (x.type !== "mysql") {
    const query = sql`UPDATE ${table} SET ${assignments} WHERE ${oneOf(model, where)} RETURNING *`;
    return (await run(x, query)).rows[0] ?? null;
  }
  return x.atomically(async (trx) => {
    const target = await lockOne(x, trx, model, where);
    if (!target) return null;
    await run(x, sql`UPDATE ${table} SET ${assignments} WHERE ${ID} = ${target.id}`, trx);
    return byId(x, trx, model, target.id);
  });
}

/**
 * Deletes one row matching `where` and returns it. Of N concurrent callers racing for the
 * same row exactly one gets it: the others' DELETE finds the row gone (PostgreSQL, after
 * waiting on its lock), waits behind the writer (SQLite), or blocks on `FOR UPDATE` and then
 * no longer sees it (MySQL).
 */
export async function consumeOne(x: Executor, model: ResolvedModel, where: Condition): Promise<Row | null> {
  const table = tableId(model.tableName);
  if (x.type !== "mysql") {
    const query = sql`DELETE FROM ${table} WHERE ${oneOf(model, where)} RETURNING *`;
    return (await run(x, query)).rows[0] ?? null;
  }
  return x.atomically(async (trx) => {
    const target = await lockOne(x, trx, model, where);
    if (!target) return null;
    const result = await run(x, sql`DELETE FROM ${table} WHERE ${ID} = ${target.id}`, trx);
    return result.affected > 0 ? target : null;
  });
}

/** `col = col + delta` for each entry; `where` doubles as the guard (see `updateOne`). */
export function increments(
  increment: Record<string, number>,
  column: (field: string) => string,
): Assignments {
  return Object.entries(increment).map(([field, delta]) => {
    const ref = id(column(field));
    return sql`${ref} = ${ref} + ${delta}`;
  });
}
