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

/** Temp database files with every connection opened on them, closed and removed by `dispose`. */
export interface TempDatabases {
  files: string[];
  /** A new connection on `files[i]`. */
  open(i: number): SqliteConnection;
  dispose(): void;
}

/** `count` temp database files (schema tests compare what each side made of its own file). */
export function tempDatabases(count: number): TempDatabases {
  const made = Array.from({ length: count }, () => tempDatabaseFile());
  const connections: SqliteConnection[] = [];
  return {
    files: made.map((m) => m.file),
    open(i) {
      const connection = openSqlite(made[i]!.file);
      connections.push(connection);
      return connection;
    },
    dispose() {
      for (const c of connections) c.close();
      for (const m of made) m.remove();
    },
  };
}
