import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { sso as referenceSSO } from "@better-auth/sso";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { Kysely, MysqlDialect, sql, type MysqlPool } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { sso } from "@latchkey/sso";
import { signUp } from "./support/flows.ts";
import { BASE_URL, jsonPost, SECRET, type Handler } from "./support/instances.ts";
import { OFFLINE_OIDC_CONFIG, registerProvider } from "./support/sso-provider.ts";

/**
 * `@latchkey/sso` and the reference's on one MariaDB database. Latchkey's migration gives
 * `ssoProvider` an invisible generated column (`ssoProvider_domain_list_idx_rows`) and an index
 * on it, so a domain inside a comma-separated list is found without reading the table: the
 * reference must write, read and migrate that table as if the column were not there.
 */
const fromBetterAuth = createRequire(createRequire(import.meta.url).resolve("better-auth"));
const mysql2 = fromBetterAuth("mysql2") as { createPool(config: object): MysqlPool };
const MYSQL = { host: "127.0.0.1", port: 3306, user: "root", password: "" };
type DB = Kysely<Record<string, never>>;

const name = `lk_${randomBytes(6).toString("hex")}`;
let admin: DB;
let db: DB;
let reference: Handler;
let latchkey: Handler;
const referenceOptions = (database: DB) => ({
  database: { db: database, type: "mysql" as const },
  secret: SECRET,
  baseURL: BASE_URL,
  emailAndPassword: { enabled: true },
  rateLimit: { enabled: false },
  logger: { disabled: true },
  plugins: [referenceSSO()],
});

beforeAll(async () => {
  admin = new Kysely({ dialect: new MysqlDialect({ pool: mysql2.createPool({ ...MYSQL, connectionLimit: 1 }) }) });
  await sql.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`).execute(admin);
  db = new Kysely({ dialect: new MysqlDialect({ pool: mysql2.createPool({ ...MYSQL, database: name, connectionLimit: 5 }) }) });
  await (await getMigrations(referenceOptions(db) as Parameters<typeof getMigrations>[0])).runMigrations();
  const ref = betterAuth(referenceOptions(db));
  reference = (request) => ref.handler(request);
  const lk = createAuth({
    database: kyselyAdapter(db),
    secret: SECRET,
    baseURL: BASE_URL,
    emailAndPassword: { enabled: true },
    logger: { disabled: true },
    plugins: [sso()],
  });
  await lk.createTables();
  latchkey = (request) => lk.handler(request);
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  await sql.raw(`DROP DATABASE IF EXISTS \`${name}\``).execute(admin);
  await admin?.destroy();
});

const signInBy = async (side: Handler, email: string) => {
  const response = await side(jsonPost("/sign-in/sso", { email, callbackURL: "/d" }));
  const body = (await response.json()) as { url?: string };
  return { status: response.status, redirect: body.url ? new URL(body.url).searchParams.get("redirect_uri") : null };
};

describe("sso on MariaDB with Latchkey's domain-list index", () => {
  it("Latchkey's migration added the invisible column and its index to the reference's table", async () => {
    const { rows } = await sql<{ extra: string }>`SELECT EXTRA AS extra FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = ${name} AND TABLE_NAME = 'ssoProvider' AND COLUMN_NAME = 'ssoProvider_domain_list_idx_rows'`.execute(db);
    expect(rows[0]?.extra).toMatch(/INVISIBLE/);
  });

  it("the reference still sees nothing to migrate", async () => {
    const plan = await getMigrations(referenceOptions(db) as Parameters<typeof getMigrations>[0]);
    expect({ toBeCreated: plan.toBeCreated, toBeAdded: plan.toBeAdded }).toEqual({ toBeCreated: [], toBeAdded: [] });
  });

  it("a list registered on the reference is found by Latchkey for a domain inside it, and the other way round", async () => {
    const owner = await signUp(reference, { email: "owner@example.com", password: "password-1234", name: "O" });
    await registerProvider(reference, owner, { providerId: "list-ref", domain: "alpha.example, beta.example", oidcConfig: OFFLINE_OIDC_CONFIG });
    await registerProvider(latchkey, owner, { providerId: "list-lk", domain: "gamma.example,delta.example", oidcConfig: OFFLINE_OIDC_CONFIG });
    const callback = (id: string) => `${BASE_URL}/api/auth/sso/callback/${id}`;
    for (const side of [reference, latchkey]) {
      expect(await signInBy(side, "ann@mail.beta.example")).toEqual({ status: 200, redirect: callback("list-ref") });
      expect(await signInBy(side, "bo@delta.example")).toEqual({ status: 200, redirect: callback("list-lk") });
    }
    expect((await signInBy(latchkey, "eve@nobody.example")).status).toBe(404);
  });

  it("rows read by the reference carry no trace of the column", async () => {
    const owner = await signUp(reference, { email: "reader@example.com", password: "password-1234", name: "R" });
    await registerProvider(latchkey, owner, { providerId: "read-lk", domain: "one.example, two.example", oidcConfig: OFFLINE_OIDC_CONFIG });
    const response = await reference(
      new Request(`${BASE_URL}/api/auth/sso/get-provider?providerId=read-lk`, { headers: { cookie: owner.cookie } }),
    );
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('"domain":"one.example, two.example"');
    expect(text).not.toContain("_rows");
  });
});
