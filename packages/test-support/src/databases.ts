import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { createPool, type Pool as MysqlPool } from "mysql2";
import pg from "pg";

// Servers from TOOLCHAIN.md. An unreachable server fails the run: database tests never skip.
const PG = { host: "127.0.0.1", port: 5432, user: "postgres" };
const MYSQL = { host: "127.0.0.1", port: 3306, user: "root", password: "" };

const runName = (): string => `lk_${randomBytes(6).toString("hex")}`;

/** A fresh SQLite file in its own temp directory; `remove()` deletes the directory. */
export function freshSqlite(): { database: Database.Database; path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "lk-sqlite-"));
  const path = join(dir, "test.db");
  return { database: new Database(path), path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A fresh PostgreSQL database with a random name (created from `test`), and a way to drop it. */
export async function freshPostgres(): Promise<{ name: string; pool: pg.Pool; drop(): Promise<void> }> {
  const name = runName();
  const admin = new pg.Client({ ...PG, database: "test" });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return {
    name,
    pool: new pg.Pool({ ...PG, database: name, max: 10 }),
    async drop() {
      const client = new pg.Client({ ...PG, database: "test" });
      await client.connect();
      // Closed pool clients may still be saying goodbye: wait for them, so FORCE kills nobody.
      for (let i = 0; i < 50; i++) {
        const { rows } = await client.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1",
          [name],
        );
        if (rows[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

/** A fresh MariaDB/MySQL database with a random name, and a way to drop it. */
export async function freshMysql(): Promise<{ name: string; pool: MysqlPool; drop(): Promise<void> }> {
  const name = runName();
  const admin = createPool({ ...MYSQL, connectionLimit: 1 }).promise();
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  await admin.end();
  return {
    name,
    pool: createPool({ ...MYSQL, database: name, connectionLimit: 10 }),
    async drop() {
      const client = createPool({ ...MYSQL, connectionLimit: 1 }).promise();
      await client.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await client.end();
    },
  };
}

/** The SQL databases a test can run on. */
export type DatabaseKind = "sqlite" | "postgres" | "mysql";

/** Every kind, for `describe.each` over the dialect matrix. */
export const DATABASE_KINDS: readonly DatabaseKind[] = ["sqlite", "postgres", "mysql"];

/** A fresh, empty database of one kind and its driver handle (what `kyselyAdapter` takes). */
export interface TestDatabase {
  kind: DatabaseKind;
  /** A better-sqlite3 `Database`, a `pg` Pool or a `mysql2` pool. */
  driver: Database.Database | pg.Pool | MysqlPool;
  /** Removes the database once its driver is closed (e.g. by the adapter's `close()`). */
  drop(): Promise<void>;
  /** Closes the driver, then removes the database. */
  close(): Promise<void>;
}

/**
 * A fresh database of `kind`: a SQLite file in a temp directory, or a PostgreSQL / MariaDB
 * database with a random name, so parallel runs never share rows.
 */
export async function testDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === "sqlite") {
    const s = freshSqlite();
    const drop = async (): Promise<void> => s.remove();
    return { kind, driver: s.database, drop, close: async () => (s.database.close(), drop()) };
  }
  if (kind === "postgres") {
    const p = await freshPostgres();
    return { kind, driver: p.pool, drop: () => p.drop(), close: async () => (await p.pool.end(), p.drop()) };
  }
  const m = await freshMysql();
  const end = (): Promise<void> =>
    new Promise((resolve, reject) => m.pool.end((e) => (e ? reject(e) : resolve())));
  return { kind, driver: m.pool, drop: () => m.drop(), close: async () => (await end(), m.drop()) };
}
