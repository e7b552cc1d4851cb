import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqliteDatabase } from "kysely";

/**
 * A better-sqlite3 connection, typed by the Kysely interface both implementations accept plus
 * `exec`. Loaded through `require` because this package carries no `@types/better-sqlite3`
 * (adding it would rewrite the shared lockfile); better-sqlite3 binds an array as positional
 * parameters, which is the form Kysely's `SqliteStatement` declares.
 */
export interface SqliteConnection extends SqliteDatabase {
  exec(sql: string): unknown;
}

type SqliteConstructor = new (file: string) => SqliteConnection;
const Database = createRequire(import.meta.url)("better-sqlite3") as SqliteConstructor;

/** Opens a new connection to `file` (each implementation gets its own, as two processes would). */
export const openSqlite = (file: string): SqliteConnection => new Database(file);

/** A fresh database file in its own temp directory, and a function that deletes it. */
export function tempDatabaseFile(): { file: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "latchkey-compat-"));
  return { file: join(dir, "auth.sqlite"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
