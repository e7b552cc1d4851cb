import type { AsyncLocalStorage } from "node:async_hooks";
import type { ResolvedField, ResolvedModel, ResolvedSchema } from "@latchkey/core";
import type { DatabaseType } from "./database-type.js";
import type { FlagColumns } from "./partial-index.js";
import type { QueryResult, Runner } from "./runners/runner.js";
import { compile, type Fragment } from "./sql.js";

/** What every operation needs: the schema, the dialect, and where to send SQL. */
export interface Executor {
  schema: ResolvedSchema;
  type: DatabaseType;
  /** The connection for this call: the open transaction if there is one, else the root. */
  db(): Runner;
  /** Marks a hot statement text to be sent as a named prepared statement (raw `pg` Pools only). */
  prepare?(sql: string): void;
  /**
   * Refuses a string its column would not hold whole; set on MySQL only, and only by the
   * entries that can speak MySQL, so the other per-dialect bundles leave the code out.
   */
  fits?: ColumnFit;
  /** MySQL only: which partial-index predicate columns exist (partial-index.ts). */
  flags?: FlagColumns;
  /** Runs `fn` in a transaction, joining the current one when `db()` already is one. */
  atomically<R>(fn: (db: Runner) => Promise<R>): Promise<R>;
}

/** Throws when `text` does not fit `model.name`'s column whole. */
export type ColumnFit = (model: ResolvedModel, name: string, field: ResolvedField, text: string) => void;

/** Compiles `statement` for the executor's dialect and runs it on `on` (default: `x.db()`). */
export const run = (x: Executor, statement: Fragment, on: Runner = x.db()): Promise<QueryResult> =>
  on.run(compile(statement, x.type));

/** A minimal async-context slot; absent on runtimes without `AsyncLocalStorage`. */
export interface Scope<T> {
  run<R>(value: T, fn: () => R): R;
  get(): T | undefined;
}

interface BuiltinLoader {
  process?: { getBuiltinModule?: (id: string) => unknown };
}

/**
 * An async-context slot for the open transaction, so adapter calls made through the root
 * adapter inside `transaction()` join it instead of waiting for the connection the
 * transaction holds (a deadlock on SQLite's single connection). Loaded through
 * `process.getBuiltinModule` so the package still imports on runtimes that lack it.
 */
export function createScope<T>(): Scope<T> | null {
  const loader = (globalThis as BuiltinLoader).process?.getBuiltinModule;
  const mod = loader?.("node:async_hooks") as
    { AsyncLocalStorage?: new () => AsyncLocalStorage<T> } | undefined;
  if (!mod?.AsyncLocalStorage) return null;
  const storage = new mod.AsyncLocalStorage();
  return { run: (value, fn) => storage.run(value, fn), get: () => storage.getStore() };
}

/** MySQL error numbers worth one more try: deadlock victim, lock wait timeout. */
const RETRYABLE = new Set([1213, 1205]);

function isRetryable(error: unknown): boolean {
  const errno = (error as { errno?: unknown } | null)?.errno;
  return typeof errno === "number" && RETRYABLE.has(errno);
}

/**
 * Runs `fn` in its own transaction, retried when MySQL picks it as a deadlock victim (row
 * locks taken by `SELECT … FOR UPDATE` under contention); other dialects never retry.
 */
export async function inTransaction<R>(
  db: Runner,
  type: DatabaseType,
  fn: (trx: Runner) => Promise<R>,
): Promise<R> {
  if (db.isTransaction) return fn(db);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(fn);
    } catch (error) {
      if (type !== "mysql" || attempt >= 5 || !isRetryable(error)) throw error;
    }
  }
}
