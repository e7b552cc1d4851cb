import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";
import type { DatabaseConfig } from "./server-config.js";

/** A row as better-sqlite3 reads it. */
export type Row = Record<string, unknown>;

/**
 * Direct SQL on a server's SQLite file, for seeding tens of thousands of rows in a second
 * instead of through as many API calls. Rows are copies of a template row the library itself
 * wrote (read back with `one`), with a few columns replaced: both implementations read the same
 * table shapes, and each side's copies keep its own value encodings (dates, booleans, JSON).
 * Used while the server is idle (between its start and its load), so nothing races the writes.
 */
export interface SqliteSeed {
  one(sql: string, ...params: unknown[]): Row;
  run(sql: string, ...params: unknown[]): void;
  /** Inserts `count` copies of `template` into `table`, row i with the columns `vary(i)` returns; one transaction. */
  copies(table: string, template: Row, count: number, vary: (i: number) => Row): void;
  close(): void;
}

/** A new random id in the shape both libraries generate (32 url-safe characters). */
export const newId = (): string => randomBytes(24).toString("base64url");

export function openSeed(database: DatabaseConfig): SqliteSeed {
  if (database.kind !== "sqlite") throw new TypeError("SQL seeding is for the SQLite scenarios");
  const db = new Database(database.file);
  db.pragma("busy_timeout = 5000");
  return {
    one(sql, ...params) {
      const row = db.prepare(sql).get(...params) as Row | undefined;
      if (!row) throw new Error(`no row for ${sql} ${JSON.stringify(params)}`);
      return row;
    },
    run(sql, ...params) {
      db.prepare(sql).run(...params);
    },
    copies(table, template, count, vary) {
      const columns = Object.keys(template);
      const insert = db.prepare(
        `insert into "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) values (${columns.map(() => "?").join(", ")})`,
      );
      db.transaction(() => {
        for (let i = 0; i < count; i++) {
          const row = { ...template, ...vary(i) };
          insert.run(...columns.map((c) => row[c]));
        }
      })();
    },
    close: () => db.close(),
  };
}
