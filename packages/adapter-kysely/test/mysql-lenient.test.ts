import { createPool } from "mysql2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BetterAuthError, coreSchema, createLogger, resolveSchema } from "@latchkey/core";
import { MysqlDialect } from "kysely";
import { kyselyAdapter, type KyselyAdapter } from "../src/index.js";
import { kyselyAdapter as mysqlEntry } from "../src/mysql.js";
import { freshMysql } from "./support/databases.js";

// MySQL outside strict mode cuts a string too long for its column and only warns. These tests
// run every connection with an empty sql_mode to show the hazard is real and that the adapter
// refuses such strings itself instead of letting a shortened value be stored.

const schema = resolveSchema([{ owner: "core", schema: coreSchema }]);
const now = new Date();
const user = (id: string, image: string, email = `${id}@example.com`) => ({
  id,
  name: "n",
  image,
  email,
  emailVerified: false,
  createdAt: now,
  updatedAt: now,
});

describe("MySQL without strict mode", () => {
  let fresh: Awaited<ReturnType<typeof freshMysql>>;
  let adapter: KyselyAdapter;
  let pool: ReturnType<typeof createPool>;

  beforeAll(async () => {
    fresh = await freshMysql();
    await fresh.pool.promise().end();
    pool = createPool({ host: "127.0.0.1", user: "root", password: "", database: fresh.name });
    pool.on("connection", (connection) => connection.query("SET SESSION sql_mode = ''"));
    adapter = kyselyAdapter(pool)({ schema, logger: createLogger({ disabled: true }) });
    await adapter.createTables?.();
  });

  afterAll(async () => {
    await adapter.close?.();
    await fresh.drop();
  });

  it("the server itself would store a shortened `text` value", async () => {
    const long = "x".repeat(70_000);
    await adapter.query(
      "INSERT INTO `user` (id, name, image, email, emailVerified, createdAt, updatedAt) VALUES (?, ?, ?, ?, 0, ?, ?)",
      ["raw", long, long, "raw@example.com", now, now],
    );
    const [row] = await adapter.query(
      "SELECT CHAR_LENGTH(name) AS n, CHAR_LENGTH(image) AS i FROM `user` WHERE id = ?",
      ["raw"],
    );
    // `name` is varchar(255) (sortable), `image` text.
    expect([Number(row?.n), Number(row?.i)]).toEqual([255, 65_535]);
    await adapter.deleteMany({ model: "user", where: [] });
  });

  it("the adapter refuses a string past `text` (65,535 bytes) or varchar(255) and stores nothing", async () => {
    const error = await adapter
      .create({ model: "user", data: user("u1", "é".repeat(40_000)) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BetterAuthError);
    expect((error as Error).message).toContain('"user.image"');
    expect(await adapter.count({ model: "user" })).toBe(0);
    const named = { ...user("u4", "i"), name: "n".repeat(256) };
    await expect(adapter.create({ model: "user", data: named })).rejects.toBeInstanceOf(BetterAuthError);
    expect(await adapter.count({ model: "user" })).toBe(0);
    // 32,767 two-byte characters are 65,534 bytes: they fit and come back whole.
    const fits = "é".repeat(32_767);
    await adapter.create({ model: "user", data: user("u2", fits) });
    expect((await adapter.findOne({ model: "user", where: [{ field: "id", value: "u2" }] }))?.image).toBe(
      fits,
    );
  });

  it("the adapter refuses strings past varchar(191) and varchar(36), counting characters", async () => {
    const email = `${"😀".repeat(180)}@example.com`;
    await expect(adapter.create({ model: "user", data: user("u3", "n", email) })).rejects.toBeInstanceOf(
      BetterAuthError,
    );
    await expect(adapter.create({ model: "user", data: user("u".repeat(37), "n") })).rejects.toBeInstanceOf(
      BetterAuthError,
    );
    // 179 emoji and "@x.io" are 184 characters (716 bytes): within varchar(191).
    const fits = `${"😀".repeat(179)}@x.io`;
    await adapter.create({ model: "user", data: user("u".repeat(36), "n", fits) });
    expect((await adapter.findOne({ model: "user", where: [{ field: "email", value: fits }] }))?.id).toBe(
      "u".repeat(36),
    );
  });

  it("the /mysql entry refuses the same strings", async () => {
    // A dialect over a second pool with the same lenient sessions; the adapter destroys it on close().
    const lenient = createPool({ host: "127.0.0.1", user: "root", password: "", database: fresh.name });
    lenient.on("connection", (connection) => connection.query("SET SESSION sql_mode = ''"));
    const viaEntry = mysqlEntry(new MysqlDialect({ pool: lenient }))({
      schema,
      logger: createLogger({ disabled: true }),
    });
    await expect(
      viaEntry.create({ model: "user", data: user("u5", "x".repeat(70_000)) }),
    ).rejects.toBeInstanceOf(BetterAuthError);
    expect(await viaEntry.count({ model: "user", where: [{ field: "id", value: "u5" }] })).toBe(0);
    await viaEntry.close?.();
  });
});
