import type { Row } from "@latchkey/core";
import { hasFunction, transactionRunner, type QueryResult, type Runner } from "./runner.js";

/** The part of a better-sqlite3 `Database` the adapter uses. */
interface SqliteStatement {
  readonly reader: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): { changes: number | bigint };
}
interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  close(): void;
}

/** Prepared statements kept per database; an auth server runs a few dozen distinct texts. */
const LIMIT = 256;

/**
 * A better-sqlite3 `Database`, run synchronously: each text is prepared once and kept (compiling
 * it again on every query cost more than running it), statements that return rows are read with
 * `all`, others `run`. The one connection is shared, so a transaction holds it: statements from
 * outside wait until it ends instead of landing inside it. `close()` closes the database.
 */
export function betterSqlite3Runner(database: SqliteDatabase): Runner {
  const statements = new Map<string, SqliteStatement>();
  const prepare = (sql: string): SqliteStatement => {
    let statement = statements.get(sql);
    if (!statement) {
      // Crude bound: start over rather than track recency; the working set is small.
      if (statements.size >= LIMIT) statements.clear();
      statement = database.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const execute = (sql: string, parameters: readonly unknown[]): QueryResult => {
    const statement = prepare(sql);
    if (statement.reader) return { rows: statement.all(parameters) as Row[], affected: 0 };
    return { rows: [], affected: Number(statement.run(parameters).changes) };
  };
  // The open transaction, if any: others wait on it.
  let held: Promise<void> | null = null;
  const inside = transactionRunner(async ({ sql, parameters }) => execute(sql, parameters));
  return {
    async run({ sql, parameters }) {
      while (held) await held;
      return execute(sql, parameters);
    },
    async transaction(fn) {
      while (held) await held;
      let release!: () => void;
      held = new Promise((resolve) => (release = resolve));
      try {
        execute("begin", []);
        try {
          const value = await fn(inside);
          execute("commit", []);
          return value;
        } catch (error) {
          execute("rollback", []);
          throw error;
        }
      } finally {
        held = null;
        release();
      }
    },
    isTransaction: false,
    close: async () => database.close(),
  };
}

/** A better-sqlite3 `Database`: `prepare` plus its own `pragma`/`aggregate` helpers. */
export const isBetterSqlite3 = (value: object): value is SqliteDatabase =>
  hasFunction(value, "prepare", "close") && (hasFunction(value, "pragma") || hasFunction(value, "aggregate"));
