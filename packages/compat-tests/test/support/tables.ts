import type { SqliteConnection } from "./sqlite.ts";

/** The core tables, parents first (inserts go in this order, deletes in reverse). */
export const CORE_TABLES = ["user", "session", "account", "verification"] as const;
export type CoreTable = (typeof CORE_TABLES)[number];
export type RowCounts = Record<CoreTable, number>;
type Row = Record<string, unknown>;

/** The raw rows of every core table, as stored on disk. */
export type TableSnapshot = Record<CoreTable, Row[]>;

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

const selectAll = (db: SqliteConnection, table: CoreTable): Row[] =>
  db.prepare(`SELECT * FROM ${quote(table)}`).all([]) as Row[];

/** Number of rows in each core table. */
export function countRows(db: SqliteConnection): RowCounts {
  const count = (table: CoreTable): number =>
    Number((db.prepare(`SELECT COUNT(*) AS n FROM ${quote(table)}`).all([])[0] as { n: number }).n);
  return {
    user: count("user"),
    session: count("session"),
    account: count("account"),
    verification: count("verification"),
  };
}

/** Row-count change per table between two counts. */
export function countDelta(before: RowCounts, after: RowCounts): RowCounts {
  return {
    user: after.user - before.user,
    session: after.session - before.session,
    account: after.account - before.account,
    verification: after.verification - before.verification,
  };
}

export function snapshotTables(db: SqliteConnection): TableSnapshot {
  return {
    user: selectAll(db, "user"),
    session: selectAll(db, "session"),
    account: selectAll(db, "account"),
    verification: selectAll(db, "verification"),
  };
}

/**
 * Puts every core table back exactly as in `snapshot`, so the second implementation answers
 * a request from the same stored state the first one saw (both share one database file).
 */
export function restoreTables(db: SqliteConnection, snapshot: TableSnapshot): void {
  db.exec("BEGIN IMMEDIATE");
  try {
    for (const table of [...CORE_TABLES].reverse()) db.prepare(`DELETE FROM ${quote(table)}`).run([]);
    for (const table of CORE_TABLES) {
      for (const row of snapshot[table]) {
        const columns = Object.keys(row);
        const sql = `INSERT INTO ${quote(table)} (${columns.map(quote).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
        db.prepare(sql).run(columns.map((c) => row[c]));
      }
    }
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}
