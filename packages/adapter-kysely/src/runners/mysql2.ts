import type { Row } from "@latchkey/core";
import { countOf, hasFunction, transactionRunner, type QueryResult, type Runner } from "./runner.js";

type Callback<T> = (error: Error | null, value: T) => void;
interface MysqlConnection {
  query(sql: string, values: readonly unknown[], callback: Callback<unknown>): void;
  release(): void;
}
interface MysqlPool extends Pick<MysqlConnection, "query"> {
  getConnection(callback: Callback<MysqlConnection>): void;
  end(callback: (error?: Error | null) => void): void;
}

/** mysql2 answers rows for a SELECT and an OK packet (`affectedRows`) for everything else. */
const result = (value: unknown): QueryResult =>
  Array.isArray(value)
    ? { rows: value as Row[], affected: 0 }
    : { rows: [], affected: countOf((value as { affectedRows?: unknown } | null)?.affectedRows) };

const query = (on: Pick<MysqlConnection, "query">, sql: string, values: readonly unknown[]) =>
  new Promise<QueryResult>((resolve, reject) =>
    on.query(sql, values, (error, value) => (error ? reject(error) : resolve(result(value)))),
  );

/**
 * A `mysql2` pool, callback or promise flavour (the promise pool wraps the callback pool in
 * `.pool`): statements outside transactions go through `pool.query`, a transaction holds one
 * connection from BEGIN to COMMIT or ROLLBACK. `close()` ends the pool.
 */
export function mysql2Runner(input: object): Runner {
  const inner = (input as { pool?: unknown }).pool;
  const pool = (inner && typeof inner === "object" && hasFunction(inner, "getConnection") ? inner : input) as MysqlPool;
  const inside = (connection: MysqlConnection): Runner =>
    transactionRunner(({ sql, parameters }) => query(connection, sql, parameters));
  return {
    run: ({ sql, parameters }) => query(pool, sql, parameters),
    async transaction(fn) {
      const connection = await new Promise<MysqlConnection>((resolve, reject) =>
        pool.getConnection((error, c) => (error ? reject(error) : resolve(c))),
      );
      try {
        await query(connection, "begin", []);
        try {
          const value = await fn(inside(connection));
          await query(connection, "commit", []);
          return value;
        } catch (error) {
          await query(connection, "rollback", []);
          throw error;
        }
      } finally {
        connection.release();
      }
    },
    isTransaction: false,
    close: () => new Promise<void>((resolve, reject) => pool.end((error) => (error ? reject(error) : resolve()))),
  };
}

/** A `mysql2` pool: it hands out connections with `getConnection`. */
export const isMysql2Pool = (value: object): boolean => hasFunction(value, "getConnection");
