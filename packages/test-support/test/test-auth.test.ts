import { existsSync } from "node:fs";
import { createPool } from "mysql2";
import pg from "pg";
import { describe, expect, it } from "vitest";
import {
  client,
  DATABASE_KINDS,
  rowCounts,
  testAuth,
  testDatabase,
  type TestDatabase,
} from "../src/index.ts";

/** Whether the database behind `database` still exists on its server. */
async function exists(database: TestDatabase, name: string): Promise<boolean> {
  if (database.kind === "postgres") {
    const admin = new pg.Client({ host: "127.0.0.1", port: 5432, user: "postgres", database: "test" });
    await admin.connect();
    const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    await admin.end();
    return rowCount === 1;
  }
  const admin = createPool({
    host: "127.0.0.1",
    port: 3306,
    user: "root",
    password: "",
    connectionLimit: 1,
  }).promise();
  const [rows] = await admin.query("SHOW DATABASES LIKE ?", [name]);
  await admin.end();
  return (rows as unknown[]).length === 1;
}

/** The server-side name (or SQLite file) of a test database. */
function nameOf(database: TestDatabase): string {
  const driver = database.driver as {
    name?: string;
    options?: { database?: string };
    config?: { connectionConfig?: { database?: string } };
  };
  if (database.kind === "sqlite") return driver.name!;
  if (database.kind === "postgres") return driver.options!.database!;
  return driver.config!.connectionConfig!.database!;
}

describe.each(DATABASE_KINDS)("testAuth on %s", (kind) => {
  it("builds an instance on a fresh database with every table, counts its rows, and removes it on close", async () => {
    const t = await testAuth({ emailAndPassword: { enabled: true } }, { db: kind });
    const name = nameOf(t.database);
    expect(name).toMatch(kind === "sqlite" ? /lk-sqlite-.*test\.db$/ : /^lk_[0-9a-f]{12}$/);
    const empty = await rowCounts(t.auth);
    expect(empty).toMatchObject({ user: 0, account: 0, session: 0, verification: 0 });
    const c = client(t.auth);
    const res = await c.post("/sign-up/email", {
      name: "Ada",
      email: "ada@example.com",
      password: "password123",
    });
    expect(res.status).toBe(200);
    expect(await rowCounts(t.auth)).toEqual({ ...empty, user: 1, account: 1, session: 1 });
    expect(Object.keys(await rowCounts(t.auth, ["verification"]))).not.toContain("verification");
    await t.close();
    await t.close(); // twice is harmless
    if (kind === "sqlite") expect(existsSync(name)).toBe(false);
    else expect(await exists(t.database, name)).toBe(false);
  });

  it("testDatabase names each database afresh, and close() ends the driver and drops it", async () => {
    const [a, b] = [await testDatabase(kind), await testDatabase(kind)];
    expect(nameOf(a)).not.toBe(nameOf(b));
    for (const database of [a, b]) {
      const name = nameOf(database);
      await database.close();
      if (kind === "sqlite") expect(existsSync(name)).toBe(false);
      else expect(await exists(database, name)).toBe(false);
    }
  });
});
