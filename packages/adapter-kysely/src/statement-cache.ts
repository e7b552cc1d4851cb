import type { SqliteDatabase, SqliteStatement } from "kysely";

/** Prepared statements kept per database; an auth server runs a few dozen distinct queries. */
const LIMIT = 256;

/**
 * Wraps a better-sqlite3 database so Kysely's driver reuses prepared statements. Kysely's
 * SQLite driver calls `prepare(sql)` on every query, and compiling the SQL again each time
 * cost more than running it (measured on get-session). Statements are only run with
 * `all`/`run`/`iterate` by the driver, one at a time on a single connection, so sharing one
 * statement per SQL text is safe.
 */
export function withStatementCache(database: SqliteDatabase): SqliteDatabase {
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
  return {
    close: () => database.close(),
    prepare,
  };
}
