import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreSchema, createLogger, resolveSchema } from "@latchkey/core";
import { kyselyAdapter, type KyselyAdapter } from "../src/index.js";
import { freshSqlite } from "./support/databases.js";

const schema = resolveSchema([{ owner: "core", schema: coreSchema }]);
const logger = createLogger({ disabled: true });

/** better-sqlite3 rows are read as arrays and named by the adapter: the names must follow the table. */
describe("SQLite: rows read as arrays keep their column names", () => {
  let store: ReturnType<typeof freshSqlite>;
  let adapter: KyselyAdapter;
  const at = new Date("2026-01-02T03:04:05.678Z");

  beforeAll(async () => {
    store = freshSqlite();
    adapter = kyselyAdapter(store.database)({ schema, logger });
    await adapter.createTables?.();
    for (const n of [1, 2, 3]) {
      await adapter.create({
        model: "user",
        data: { id: `u${n}`, name: `User ${n}`, email: `u${n}@example.com`, emailVerified: n === 2, createdAt: at, updatedAt: at },
      });
    }
  });
  afterAll(async () => {
    await adapter.close?.();
    store.remove();
  });

  it("reads whole rows, selected fields and counts by name", async () => {
    const all = await adapter.findMany({ model: "user", sortBy: { field: "email", direction: "asc" } });
    expect(all).toEqual([1, 2, 3].map((n) => ({
      id: `u${n}`,
      name: `User ${n}`,
      email: `u${n}@example.com`,
      emailVerified: n === 2,
      image: null,
      createdAt: at,
      updatedAt: at,
    })));
    const picked = await adapter.findMany({ model: "user", where: [{ field: "id", value: ["u3", "u1"], operator: "in" }], select: ["email", "name"], sortBy: { field: "id", direction: "desc" } });
    expect(picked).toEqual([
      { id: "u3", email: "u3@example.com", name: "User 3" },
      { id: "u1", email: "u1@example.com", name: "User 1" },
    ]);
    expect(await adapter.count({ model: "user" })).toBe(3);
    expect(await adapter.findMany({ model: "user", where: [{ field: "id", value: "nobody" }] })).toEqual([]);
  });

  it("still names columns right after another connection drops one from the middle of the table", async () => {
    // Prepared (and cached) before the change.
    expect(await adapter.findOne({ model: "user", where: [{ field: "id", value: "u2" }] })).toMatchObject({ email: "u2@example.com" });
    const other = new Database(store.path);
    try {
      // Every column after "image" moves one place left in `SELECT *`.
      other.exec(`ALTER TABLE "user" DROP COLUMN "image"`);
    } finally {
      other.close();
    }
    const row = await adapter.findOne<Record<string, unknown>>({ model: "user", where: [{ field: "id", value: "u2" }] });
    expect(row).toEqual({ id: "u2", name: "User 2", email: "u2@example.com", emailVerified: true, image: null, createdAt: at, updatedAt: at });
    const page = await adapter.findMany({ model: "user", limit: 2, offset: 1, sortBy: { field: "id", direction: "asc" } });
    expect(page.map((u) => u.email)).toEqual(["u2@example.com", "u3@example.com"]);
  });
  it("reads that name their columns keep their names when another connection reshapes the table", async () => {
    const pick = () => adapter.findMany<Record<string, unknown>>({ model: "user", where: [{ field: "id", value: "u3" }], select: ["email", "name"] });
    expect(await pick()).toEqual([{ id: "u3", email: "u3@example.com", name: "User 3" }]);
    const other = new Database(store.path);
    try {
      // The schema version moves; a read that names its columns is unaffected by it.
      other.exec(`ALTER TABLE "user" ADD COLUMN "nickname" text`);
      other.exec(`UPDATE "user" SET "nickname" = 'x'`);
    } finally {
      other.close();
    }
    expect(await pick()).toEqual([{ id: "u3", email: "u3@example.com", name: "User 3" }]);
    expect(await adapter.findOne({ model: "user", where: [{ field: "id", value: "u3" }] })).toMatchObject({ email: "u3@example.com", name: "User 3" });
  });

  it("names columns as SQLite prepared the statement again after a rename of the same width", async () => {
    const rename = (from: string, to: string) => {
      const other = new Database(store.path);
      try {
        other.exec(`ALTER TABLE "user" RENAME COLUMN "${from}" TO "${to}"`);
      } finally {
        other.close();
      }
    };
    const read = () => adapter.findMany<Record<string, unknown>>({ model: "user", where: [{ field: "id", value: "u1" }] });
    // The statement (`SELECT *`) is prepared and cached before the change.
    expect(await read()).toMatchObject([{ name: "User 1" }]);
    rename("name", "displayName");
    try {
      // As many columns as before under another name: a cached name list would still read the
      // renamed column as "name"; the table has no "name" now.
      const [row] = await read();
      expect(row).toMatchObject({ id: "u1", email: "u1@example.com" });
      expect(row!.name ?? null).toBeNull();
    } finally {
      rename("displayName", "name");
    }
    expect(await adapter.findOne({ model: "user", where: [{ field: "id", value: "u1" }] })).toMatchObject({ name: "User 1", email: "u1@example.com" });
  });
});
