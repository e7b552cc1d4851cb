import type { Row } from "@latchkey/core";
import type { Compiled } from "../sql.js";

/** What a statement returned: its rows (a SELECT, or RETURNING) and how many rows it changed. */
export interface QueryResult {
  rows: Row[];
  /** Rows inserted, updated or deleted; 0 when the driver does not say. */
  affected: number;
}

/**
 * Where the adapter sends SQL: the database handle it was given (a Kysely instance, a Kysely
 * dialect's driver, or a raw better-sqlite3, D1, `pg` or `mysql2` handle) behind one interface.
 */
export interface Runner {
  run(statement: Compiled): Promise<QueryResult>;
  /**
   * Runs `fn` in a transaction on one connection, committed when it resolves and rolled back
   * when it throws. Inside, `fn`'s runner is that transaction (and `isTransaction` is true).
   */
  transaction<R>(fn: (trx: Runner) => Promise<R>): Promise<R>;
  readonly isTransaction: boolean;
  /** Texts to send as named prepared statements (raw `pg` Pools only). */
  prepare?(sql: string): void;
  /** Releases what the adapter opened; a caller's own Kysely instance is left open. */
  close(): Promise<void>;
}

/**
 * Kysely's form of a compiled statement: our text as a raw-SQL node, which is what its own `sql`
 * tag compiles to, so Kysely plugins and dialect drivers see nothing new. Built without Kysely.
 */
export const kyselyQuery = ({ sql, parameters }: Compiled) => ({
  sql,
  parameters,
  query: { kind: "RawNode" as const, sqlFragments: [sql], parameters: [] },
  queryId: { queryId: "latchkey" },
});

/** A Kysely driver's answer in the adapter's terms. */
export const fromKysely = (r: { rows: unknown[]; numAffectedRows?: bigint }): QueryResult => ({
  rows: r.rows as Row[],
  affected: countOf(r.numAffectedRows),
});

/** A statement's row count as a number, from whichever form the driver reports. */
export const countOf = (value: unknown): number =>
  typeof value === "number" || typeof value === "bigint" ? Number(value) : 0;

/** Whether `value` has a function under every one of `names`. */
export const hasFunction = (value: object, ...names: string[]): boolean =>
  names.every((name) => typeof (value as Record<string, unknown>)[name] === "function");

/** The runner of an open transaction: statements go to its connection; nested use joins it. */
export function transactionRunner(run: Runner["run"]): Runner {
  const self: Runner = { run, transaction: (fn) => fn(self), isTransaction: true, close: async () => {} };
  return self;
}
