import { afterEach, describe, expect, it } from "vitest";
import { createAuth, type LatchkeyOptions } from "@latchkey/core";
import { kyselyAdapter } from "../src/index.js";
import { freshSqlite } from "./support/databases.js";

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((fn) => fn()));

function instance(options: Partial<LatchkeyOptions> = {}) {
  const db = freshSqlite();
  cleanups.push(() => {
    db.database.close();
    db.remove();
  });
  const lines: string[] = [];
  const make = (extra: Partial<LatchkeyOptions> = {}) =>
    createAuth({
      database: kyselyAdapter(db.database),
      secret: "s".repeat(40),
      baseURL: "http://localhost:3000",
      emailAndPassword: { enabled: true },
      logger: { level: "error", log: (_level, message) => lines.push(message) },
      ...options,
      ...extra,
    });
  return { db, lines, make };
}

const ok = (auth: { handler: (r: Request) => Promise<Response> }) =>
  auth.handler(new Request("http://localhost:3000/api/auth/ok"));

describe("schema validation on the first request (SQLite)", () => {
  it("fails every request, /ok included, while a column is missing, and logs what is missing", async () => {
    const t = instance();
    await t.make().createTables();
    t.db.database.exec('ALTER TABLE "user" DROP COLUMN "image"');
    t.db.database.exec('DROP TABLE "verification"');
    const auth = t.make();
    const res = await ok(auth);
    expect(res.status).toBe(500);
    expect(await res.text()).toBe("");
    const signUp = await auth.handler(
      new Request("http://localhost:3000/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "A", email: "a@example.com", password: "password123" }),
      }),
    );
    expect(signUp.status).toBe(500);
    expect(t.db.database.prepare('SELECT count(*) AS n FROM "user"').get()).toEqual({ n: 0 });
    const line = t.lines.find((l) => l.startsWith("Database schema mismatch"));
    expect(line).toContain("verification");
    expect(line).toContain("user.image");
  });

  it("serves again once createTables() adds what is missing", async () => {
    const t = instance();
    await t.make().createTables();
    t.db.database.exec('ALTER TABLE "session" DROP COLUMN "userAgent"');
    const auth = t.make();
    expect((await ok(auth)).status).toBe(500);
    await auth.createTables();
    expect((await ok(auth)).status).toBe(200);
  });

  it("skips the check with validateSchema: false", async () => {
    const t = instance();
    const auth = t.make({ advanced: { database: { validateSchema: false } } });
    expect((await ok(auth)).status).toBe(200);
  });
});
