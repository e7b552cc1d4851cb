import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, type Dialect } from "kysely";
import type { DatabaseConfig } from "./config.js";

/** An open Kysely connection and the way to release it. */
export interface DemoDatabase {
  db: Kysely<DemoTables>;
  close(): Promise<void>;
}

/** The demo queries no table itself; Latchkey's adapter owns the schema. */
export type DemoTables = Record<string, never>;

/** Opens the database `DATABASE_URL` names, creating a SQLite file's folder on first start. */
export async function openDatabase(config: DatabaseConfig): Promise<DemoDatabase> {
  const db = new Kysely<DemoTables>({ dialect: await createDialect(config) });
  return { db, close: () => db.destroy() };
}

async function createDialect(config: DatabaseConfig): Promise<Dialect> {
  // Drivers load on demand so a SQLite-only run never loads pg or mysql2.
  switch (config.kind) {
    case "sqlite": {
      const { default: Database } = await import("better-sqlite3");
      if (config.file !== ":memory:") mkdirSync(dirname(config.file), { recursive: true });
      const database = new Database(config.file);
      // WAL lets session reads proceed while a sign-up writes.
      if (config.file !== ":memory:") database.pragma("journal_mode = WAL");
      return new SqliteDialect({ database });
    }
    case "postgres": {
      const { default: pg } = await import("pg");
      return new PostgresDialect({ pool: new pg.Pool({ connectionString: config.url }) });
    }
    case "mysql": {
      const { createPool } = await import("mysql2");
      return new MysqlDialect({ pool: createPool(config.url) });
    }
  }
}
