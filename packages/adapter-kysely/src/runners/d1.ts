import { BetterAuthError, type Row } from "@latchkey/core";
import { hasFunction, type Runner } from "./runner.js";

/** The part of a Cloudflare D1 binding (`D1Database`) the adapter uses. */
interface D1Database {
  prepare(sql: string): {
    bind(...values: unknown[]): { all(): Promise<{ results?: Row[]; meta?: { changes?: number } }> };
  };
}

/**
 * A Cloudflare D1 binding (`env.DB`), used directly: no Kysely dialect, so a worker bundles none
 * of Kysely. D1 runs each statement on its own and has no interactive transactions (`BEGIN`
 * is refused), so `transaction()` is an error, as it is through kysely-d1's dialect. There is
 * nothing to close.
 */
export function d1Runner(database: D1Database): Runner {
  return {
    async run({ sql, parameters }) {
      const { results, meta } = await database
        .prepare(sql)
        .bind(...parameters)
        .all();
      return { rows: results ?? [], affected: meta?.changes ?? 0 };
    },
    transaction: () =>
      Promise.reject(new BetterAuthError("D1 has no interactive transactions: adapter.transaction() is unavailable.")),
    isTransaction: false,
    close: async () => {},
  };
}

/** A D1 binding: `prepare`, `batch` and `exec`, and none of better-sqlite3's helpers. */
export const isD1 = (value: object): value is D1Database =>
  hasFunction(value, "prepare", "batch", "exec") && !hasFunction(value, "pragma");
