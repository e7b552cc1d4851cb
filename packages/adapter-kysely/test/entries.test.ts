import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { coreSchema, createLogger, resolveSchema, type AdapterFactory } from "@latchkey/core";
import type { KyselyAdapter } from "../src/index.js";
import { kyselyAdapter as mysqlAdapter } from "../src/mysql.js";
import { kyselyAdapter as postgresAdapter } from "../src/postgres.js";
import { kyselyAdapter as sqliteAdapter } from "../src/sqlite.js";
import { freshSqlite } from "./support/databases.js";

const schema = resolveSchema([{ owner: "core", schema: coreSchema }]);
const open = (factory: AdapterFactory): KyselyAdapter =>
  factory({ schema, logger: createLogger({ disabled: true }) }) as KyselyAdapter;

// Dialects are built but never connected: Kysely opens a driver on first use only.
const unusedPool = {} as never;

describe("per-dialect entries (@latchkey/adapter-kysely/sqlite, /postgres, /mysql)", () => {
  const sqlite = freshSqlite();
  afterAll(() => sqlite.remove());

  it("sqlite: a caller's Kysely instance, used as is and left open by close()", async () => {
    const db = new Kysely<Record<string, never>>({
      dialect: new SqliteDialect({ database: sqlite.database }),
    });
    const adapter = open(sqliteAdapter(db));
    expect(adapter.type).toBe("sqlite");
    expect(adapter.db).toBe(db);
    await adapter.createTables?.();
    const user = await adapter.create<{ id: string }>({
      model: "user",
      data: {
        id: "u1",
        name: "A",
        email: "a@example.com",
        emailVerified: false,
        createdAt: new Date(),
        updatedAt: new Date(),
      },
    });
    expect(user.id).toBe("u1");
    await adapter.close?.();
    expect(await adapter.count({ model: "user" })).toBe(1);
    await db.destroy();
  });

  it("sqlite: a Kysely dialect, wrapped and destroyed by close()", async () => {
    const { database, remove } = freshSqlite();
    const adapter = open(sqliteAdapter(new SqliteDialect({ database })));
    expect(adapter.type).toBe("sqlite");
    expect(await adapter.findSchemaProblems?.()).toContainEqual({ table: "user" });
    await adapter.close?.();
    expect(database.open).toBe(false);
    remove();
  });

  it("postgres and mysql entries take their own dialects", () => {
    expect(open(postgresAdapter(new PostgresDialect({ pool: unusedPool }))).type).toBe("postgres");
    expect(open(mysqlAdapter(new MysqlDialect({ pool: unusedPool }))).type).toBe("mysql");
  });

  it("a dialect of another database is a TypeError at configuration time", () => {
    expect(() => sqliteAdapter(new PostgresDialect({ pool: unusedPool }))).toThrow(
      new TypeError(
        "kyselyAdapter (@latchkey/adapter-kysely/sqlite): this Kysely dialect speaks postgres, not sqlite.",
      ),
    );
    const db = new Kysely({ dialect: new SqliteDialect({ database: sqlite.database }) });
    expect(() => mysqlAdapter(db)).toThrow(/this Kysely instance speaks sqlite, not mysql/);
  });

  it("a raw driver is refused: only the main entry wraps drivers", () => {
    expect(() => sqliteAdapter(sqlite.database as never)).toThrow(
      /expected a Kysely instance or a Kysely dialect; raw drivers are accepted by "@latchkey\/adapter-kysely"/,
    );
  });
});
