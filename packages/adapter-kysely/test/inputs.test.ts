import { createPool } from "mysql2";
import { createPool as createPromisePool } from "mysql2/promise";
import { DummyDriver, Kysely, SqliteDialect, SqliteIntrospector, SqliteQueryCompiler } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { coreSchema, createLogger, resolveSchema } from "@latchkey/core";
import { kyselyAdapter, type KyselyAdapter } from "../src/index.js";
import { freshMysql, freshSqlite } from "./support/databases.js";

const schema = resolveSchema([{ owner: "core", schema: coreSchema }]);
const open = (input: object, options?: Parameters<typeof kyselyAdapter>[1]): KyselyAdapter =>
  kyselyAdapter(input, options)({ schema, logger: createLogger({ disabled: true }) });

describe("what kyselyAdapter accepts", () => {
  const sqlite = freshSqlite();
  afterAll(() => sqlite.remove());

  it("a raw better-sqlite3 Database: detected as sqlite, closed by close()", async () => {
    const { database } = freshSqlite();
    const adapter = open(database);
    expect(adapter.type).toBe("sqlite");
    await adapter.createTables?.();
    expect(await adapter.count({ model: "user" })).toBe(0);
    await adapter.close?.();
    expect(database.open).toBe(false);
  });

  it("a caller's Kysely instance: dialect detected, left open by close()", async () => {
    const db = new Kysely<Record<string, never>>({
      dialect: new SqliteDialect({ database: sqlite.database }),
    });
    const adapter = open(db);
    expect(adapter.type).toBe("sqlite");
    expect(adapter.db).toBe(db);
    await adapter.createTables?.();
    await adapter.close?.();
    expect(await adapter.count({ model: "user" })).toBe(0);
    await db.destroy();
  });

  it("a Kysely dialect: wrapped, detected, owned", async () => {
    const { database, remove } = freshSqlite();
    const adapter = open(new SqliteDialect({ database }));
    expect(adapter.type).toBe("sqlite");
    // Kysely opens the driver lazily: use it once, so there is something to close.
    expect(await adapter.findSchemaProblems?.()).toContainEqual({ table: "user" });
    await adapter.close?.();
    expect(database.open).toBe(false);
    remove();
  });

  it("a pg Pool: detected as postgres", async () => {
    const pool = new pg.Pool({ host: "127.0.0.1", user: "postgres", database: "test" });
    const adapter = open(pool);
    expect(adapter.type).toBe("postgres");
    expect(await adapter.findSchemaProblems?.()).toContainEqual({ table: "user" });
    await adapter.close?.();
  });

  it("mysql2 callback and promise pools: detected as mysql and usable", async () => {
    const fresh = await freshMysql();
    try {
      const callbackPool = createPool({
        host: "127.0.0.1",
        user: "root",
        password: "",
        database: fresh.name,
      });
      const viaCallback = open(callbackPool);
      expect(viaCallback.type).toBe("mysql");
      await viaCallback.createTables?.();
      await viaCallback.close?.();
      const promisePool = createPromisePool({
        host: "127.0.0.1",
        user: "root",
        password: "",
        database: fresh.name,
      });
      const viaPromise = open(promisePool);
      expect(viaPromise.type).toBe("mysql");
      const now = new Date();
      await viaPromise.create({
        model: "user",
        data: { id: "u1", name: "n", email: "e@x.io", emailVerified: false, createdAt: now, updatedAt: now },
      });
      expect(
        await viaPromise.findOne({ model: "user", where: [{ field: "email", value: "e@x.io" }] }),
      ).toMatchObject({ id: "u1", emailVerified: false });
      await viaPromise.close?.();
      await fresh.pool.promise().end();
    } finally {
      await fresh.drop();
    }
  });

  it("an explicit type wins over detection", () => {
    const db = new Kysely<Record<string, never>>({
      dialect: new SqliteDialect({ database: sqlite.database }),
    });
    expect(open(db, { type: "postgres" }).type).toBe("postgres");
  });

  it("rejects what it cannot identify with a TypeError", () => {
    expect(() => open({})).toThrow(TypeError);
    // A dialect whose adapter is none of the three Kysely ships for SQLite, PostgreSQL, MySQL.
    const unknown = new Kysely<Record<string, never>>({
      dialect: {
        createAdapter: () => ({}) as never,
        createDriver: () => new DummyDriver(),
        createIntrospector: (db) => new SqliteIntrospector(db),
        createQueryCompiler: () => new SqliteQueryCompiler(),
      },
    });
    expect(() => open(unknown)).toThrow(/type/);
    expect(open(unknown, { type: "mysql" }).type).toBe("mysql");
  });
});
