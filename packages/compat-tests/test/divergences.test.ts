import { getMigrations } from "better-auth/db/migration";
import { createAuth } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import {
  DummyDriver,
  Kysely,
  MysqlAdapter,
  MysqlIntrospector,
  MysqlQueryCompiler,
  type Dialect,
} from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { capture } from "./support/capture.ts";
import { signUp } from "./support/flows.ts";
import { createPair, jsonPost, SECRET, type Pair } from "./support/instances.ts";

/**
 * Deliberate differences from the reference (DIVERGENCES.md). Each test asserts both
 * sides' own behaviour, so a change on either side shows up here.
 */

describe("a malformed stored password hash (reference bug)", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair();
  });
  afterAll(() => pair.close());

  // The reference's verify throws "Invalid password hash" when the salt or key is missing,
  // which surfaces as a 500 with an empty body (core.md §4); Latchkey treats the hash as
  // not matching, answering exactly as for a wrong password.
  for (const stored of ["not-a-scrypt-hash", "0123456789abcdef0123456789abcdef:", ":deadbeef"]) {
    it(`sign-in against "${stored}": the reference answers 500, Latchkey 401 INVALID_EMAIL_OR_PASSWORD`, async () => {
      const user = {
        name: "Broken Hash",
        email: `broken${stored.length}@example.com`,
        password: "broken-hash-1",
      };
      const { userId } = await signUp(pair.reference, user);
      pair.db.prepare('UPDATE "account" SET "password" = ? WHERE "userId" = ?').run([stored, userId]);
      const request = jsonPost("/sign-in/email", { email: user.email, password: user.password });
      // better-call prints unexpected errors itself (the logger option does not reach it).
      const printed = vi.spyOn(console, "error").mockImplementation(() => undefined);
      const reference = await capture(await pair.reference(request.clone()));
      const logged = printed.mock.calls.flat().map(String).join(" ");
      printed.mockRestore();
      expect(logged).toContain("Invalid password hash");
      const latchkey = await capture(await pair.latchkey(request.clone()));
      expect(reference.status).toBe(500);
      expect(reference.bodyKind).toBe("empty");
      expect(latchkey.status).toBe(401);
      expect(latchkey.body).toEqual({
        code: "INVALID_EMAIL_OR_PASSWORD",
        message: "Invalid email or password",
      });
      expect(latchkey.setCookie).toEqual([]);
    });
  }
});

/** A MySQL dialect whose driver runs nothing, so the DDL can be read without a server. */
function recordingMysql(): {
  dialect: Dialect;
  statements: string[];
  db: Kysely<Record<string, Record<string, unknown>>>;
} {
  const dialect: Dialect = {
    createAdapter: () => new MysqlAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new MysqlIntrospector(db),
    createQueryCompiler: () => new MysqlQueryCompiler(),
  };
  const statements: string[] = [];
  const db = new Kysely<Record<string, Record<string, unknown>>>({
    dialect,
    log: (event) => void statements.push(event.query.sql),
  });
  return { dialect, statements, db };
}

const ddl = (sql: string): string[] =>
  sql
    .split(";")
    .map((s) => s.trim())
    .filter((s) => /^create /i.test(s));

describe("MySQL DDL (spec: VARCHAR(191) for unique text columns)", () => {
  it("Latchkey's CREATE TABLEs are the reference's with unique text columns as varchar(191)", async () => {
    const reference = recordingMysql();
    const referenceSql = await (
      await getMigrations({
        database: { dialect: reference.dialect, type: "mysql" },
        emailAndPassword: { enabled: true },
      })
    ).compileMigrations();

    const latchkey = recordingMysql();
    const auth = createAuth({
      database: kyselyAdapter(latchkey.db, { type: "mysql" }),
      secret: SECRET,
      emailAndPassword: { enabled: true },
    });
    await auth.createTables();

    const theirs = ddl(referenceSql);
    const ours = ddl(latchkey.statements.join(";"));
    expect(theirs).toHaveLength(7);
    expect(theirs.join("\n")).toContain("`email` varchar(255) not null unique");
    expect(theirs.join("\n")).toContain("`token` varchar(255) not null unique");
    // utf8mb4 × 191 fits the 767-byte index key limit of older MySQL/InnoDB row formats.
    const expected = theirs.map((s) =>
      s.replace(/(`(?:email|token)` )varchar\(255\)( not null unique)/g, "$1varchar(191)$2"),
    );
    expect(ours).toEqual(expected);
  });
});

describe("update-user with a non-string name (reference bug)", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair();
  });
  afterAll(() => pair.close());

  // The reference's body is a record of anything: a number is stored in the text column
  // `user.name`, breaking every reader that expects a string. Latchkey refuses it.
  it("the reference stores { name: 5 }, Latchkey answers 400 VALIDATION_ERROR and stores nothing", async () => {
    const user = { name: "Typed Name", email: "typed-name@example.com", password: "typed-name-1" };
    const { cookie } = await signUp(pair.reference, user);
    const latchkey = await pair.latchkey(jsonPost("/update-user", { name: 5 }, { cookie }));
    expect(latchkey.status).toBe(400);
    expect(await latchkey.json()).toEqual({
      code: "VALIDATION_ERROR",
      message: "[body.name] Invalid input: expected string, received number",
    });
    const read = () => (pair.db.prepare('SELECT "name" FROM "user" WHERE "email" = ?').all([user.email])[0] as { name: unknown }).name;
    expect(read()).toBe("Typed Name");
    const reference = await pair.reference(jsonPost("/update-user", { name: 5 }, { cookie }));
    expect(reference.status).toBe(200);
    // SQLite text affinity turns the JSON number into the string "5.0".
    expect(read()).toBe("5.0");
  });
});

describe("POST /set-password (spec: an HTTP route)", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair();
  });
  afterAll(() => pair.close());

  // Spec, Endpoints: /set-password fills a credential account that has no password. The
  // reference keeps setPassword server-only, so it has no such path.
  it("the reference answers 404; Latchkey sets the password of a user who has none", async () => {
    const user = { name: "No Password", email: "no-password@example.com", password: "first-password-1" };
    const { cookie, userId } = await signUp(pair.reference, user);
    pair.db.prepare('UPDATE "account" SET "password" = NULL WHERE "userId" = ?').run([userId]);
    const body = { newPassword: "second-password-1" };
    expect((await pair.reference(jsonPost("/set-password", body, { cookie }))).status).toBe(404);
    const latchkey = await pair.latchkey(jsonPost("/set-password", body, { cookie }));
    expect(latchkey.status).toBe(200);
    expect(await latchkey.json()).toEqual({ status: true });
    const again = await pair.latchkey(jsonPost("/set-password", body, { cookie }));
    expect(await again.json()).toEqual({ code: "PASSWORD_ALREADY_SET", message: "User already has a password set" });
    // The password set by Latchkey signs in on the reference too.
    const signIn = await pair.reference(jsonPost("/sign-in/email", { email: user.email, password: body.newPassword }));
    expect(signIn.status).toBe(200);
  });
});
