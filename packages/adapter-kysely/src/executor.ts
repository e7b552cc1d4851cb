import type { AsyncLocalStorage } from "node:async_hooks";
import type { ResolvedSchema } from "@latchkey/core";
import type { DB, DatabaseType } from "./dialect.js";
import type { PreparedStatements } from "./pg-prepared.js";

/** What every operation needs: the schema, the dialect, and where to send SQL. */
export interface Executor {
  schema: ResolvedSchema;
  type: DatabaseType;
  /** The connection for this call: the open transaction if there is one, else the root instance. */
  db(): DB;
  /** Where to mark hot queries as prepared statements; absent unless the adapter wraps a raw `pg` Pool. */
  prepared?: PreparedStatements;
  /** Runs `fn` in a transaction, joining the current one when `db()` already is one. */
  atomically<R>(fn: (db: DB) => Promise<R>): Promise<R>;
}

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
export async function inTransaction<R>(db: DB, type: DatabaseType, fn: (trx: DB) => Promise<R>): Promise<R> {
  if (db.isTransaction) return fn(db);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(fn);
    } catch (error) {
      if (type !== "mysql" || attempt >= 5 || !isRetryable(error)) throw error;
    }
  }
}
