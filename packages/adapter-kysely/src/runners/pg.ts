import type { Row } from "@latchkey/core";
import { hasFunction, transactionRunner, type QueryResult, type Runner } from "./runner.js";

/** What `pg` answers to a query. */
interface PgResult {
  rows: Row[];
  rowCount: number | null;
  command: string;
}
type PgQuery = (query: string | { name?: string; text: string; values: unknown[] }, values?: unknown[]) => Promise<PgResult>;
interface PgClient {
  query: PgQuery;
  release(error?: Error | boolean): void;
}
interface PgPool {
  query: PgQuery;
  connect(): Promise<PgClient>;
  end(): Promise<void>;
}

const WRITES = new Set(["INSERT", "UPDATE", "DELETE", "MERGE"]);
const result = ({ rows, rowCount, command }: PgResult): QueryResult => ({
  rows: rows ?? [],
  affected: WRITES.has(command) ? (rowCount ?? 0) : 0,
});

// Statement names per pool, shared by every adapter made over that pool: a name stands for one
// text on every connection, so two adapters (two schemas) never reuse a name for another text.
const registries = new WeakMap<PgPool, Map<string, string>>();
// Pools whose server refused a named statement: from then on every query goes unnamed.
const refused = new WeakSet<PgPool>();

/**
 * Whether PostgreSQL (or a pooler in front of it) refused a named statement: 26000 "prepared
 * statement does not exist" (a transaction pooler such as PgBouncer before 1.21, or with
 * `max_prepared_statements = 0`, moved the client to another server connection) or 42P05
 * "already exists" (it moved it to one that prepared the name for someone else).
 */
const isPreparedStatementRefusal = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "26000" || code === "42P05";
};

/**
 * A `pg` Pool: statements outside transactions go through `pool.query` (a pooled client per
 * statement), a transaction holds one client from BEGIN to COMMIT or ROLLBACK. Texts marked
 * with `prepare` run as named prepared statements when `named` is on: each connection parses
 * and plans them once, then only binds and executes. The marked texts are single reads outside
 * transactions, so when a pooler refuses a name the same text runs unnamed, and the pool stops
 * naming statements for good. `close()` ends the pool.
 */
export function pgRunner(pool: PgPool, named: boolean): Runner {
  let names = registries.get(pool);
  if (!names) registries.set(pool, (names = new Map()));
  const known = names;
  const inside = (client: PgClient): Runner =>
    transactionRunner(async ({ sql, parameters }) => result(await client.query(sql, parameters)));
  return {
    async run({ sql, parameters }) {
      const name = named && !refused.has(pool) ? known.get(sql) : undefined;
      if (!name) return result(await pool.query(sql, parameters));
      try {
        return result(await pool.query({ name, text: sql, values: parameters }));
      } catch (error) {
        if (!isPreparedStatementRefusal(error)) throw error;
        refused.add(pool);
        return result(await pool.query(sql, parameters));
      }
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("begin");
        try {
          const value = await fn(inside(client));
          await client.query("commit");
          return value;
        } catch (error) {
          await client.query("rollback");
          throw error;
        }
      } finally {
        client.release();
      }
    },
    isTransaction: false,
    prepare(sql) {
      if (named && !known.has(sql)) known.set(sql, `latchkey_${known.size + 1}`);
    },
    close: () => pool.end(),
  };
}

/** A `pg` Pool (a bare Client has no `totalCount` and cannot hand out connections). */
export const isPgPool = (value: object): value is PgPool =>
  hasFunction(value, "connect", "end", "query") && "totalCount" in value;
