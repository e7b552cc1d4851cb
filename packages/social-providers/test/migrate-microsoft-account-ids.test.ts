import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { createAuth } from "@latchkey/core";
import { Browser } from "@latchkey/test-support";
import { migrateMicrosoftAccountIds, oidOfGraphId } from "../src/migrate-microsoft-account-ids.ts";
import { runMigrateMicrosoftAccountsCli } from "../src/migrate-microsoft-accounts-cli.ts";
import { microsoft } from "../src/providers/microsoft.ts";
import { accountIds, seedAccounts, type SeedAccount } from "./support/account-rows.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, BASE, CLIENT, SECRET, signInThrough } from "./support/flow.ts";
import { unsignedJwt } from "./support/id-token-signer.ts";

const here = dirname(fileURLToPath(import.meta.url));
const TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const claims = (sub: string, oid?: string) => ({
  iss: `https://login.microsoftonline.com/${TENANT}/v2.0`,
  tid: TENANT,
  aud: CLIENT.clientId,
  sub,
  ...(oid ? { oid } : {}),
});
const HOUR = 3600_000;
const WORK_OID = "48d31887-5fad-4d73-a9f5-3c356e68a038";
/** A personal account: Graph's 16-hex id, which its tokens carry as this oid. */
const PERSONAL_ID = "66f33332eca7ea81";
const PERSONAL_OID = "00000000-0000-0000-66f3-3332eca7ea81";
const GRAPH_IDS: Record<string, string> = {
  "Bearer plain-access-2": WORK_OID,
  "Bearer plain-access-7": PERSONAL_ID,
};

/** The 1.0 rows: every Microsoft account keyed by `sub`, in each state the migration meets. */
const SEEDS: SeedAccount[] = [
  { id: "a1", accountId: "sub-1", idTokenClaims: claims("sub-1", "oid-1"), accessToken: "plain-access-1" },
  {
    id: "a2",
    accountId: "sub-2",
    accessToken: "plain-access-2",
    accessTokenExpiresAt: new Date(Date.now() + HOUR),
  },
  {
    id: "a3",
    accountId: "sub-3",
    accessToken: "plain-access-3",
    accessTokenExpiresAt: new Date(Date.now() - HOUR),
  },
  { id: "a4", accountId: "oid-4", idTokenClaims: claims("sub-4", "oid-4") },
  { id: "a5", accountId: "sub-5", idTokenClaims: claims("sub-5"), accessToken: "revoked-access-5" },
  { id: "a6", accountId: "sub-6" },
  { id: "a7", accountId: "sub-7", accessToken: "plain-access-7" },
  { id: "g1", providerId: "github", accountId: "sub-1" },
];

describe("migrateMicrosoftAccountIds", () => {
  let fake: FakeProvider;
  let dir: string;
  let file: string;
  let db: Database.Database;
  beforeAll(async () => {
    fake = await startFakeProvider();
    // Graph /me answers only for the live token, and says who it belongs to.
    fake.on("GET /v1.0/me", ({ headers }) => {
      const id = GRAPH_IDS[String(headers.authorization)];
      return id
        ? { json: { id, displayName: "Someone" } }
        : { status: 401, json: { error: { code: "InvalidAuthenticationToken" } } };
    });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "latchkey-ms-migration-"));
    file = join(dir, "auth.sqlite");
  });
  afterEach(() => {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function instance(encrypt = true) {
    db = new Database(file);
    const auth = createAuth({
      database: kyselyAdapter(db),
      secret: SECRET,
      baseURL: BASE,
      account: { encryptOAuthTokens: encrypt },
      socialProviders: {
        microsoft: microsoft({
          ...CLIENT,
          tenantId: TENANT,
          disableProfilePhoto: true,
          endpoints: at(fake, { authorization: "/authorize", token: "/token", graph: "/v1.0" }),
        }),
      },
    });
    await auth.createTables();
    return auth;
  }

  it("re-keys rows from the ID token or Graph, leaves the rest, and reports; dry run writes nothing", async () => {
    const auth = await instance();
    await seedAccounts(file, SEEDS, true);
    const before = accountIds(file);
    const graphEndpoint = fake.url("/v1.0");

    const dry = await migrateMicrosoftAccountIds({ auth, dryRun: true, graphEndpoint });
    expect(accountIds(file)).toEqual(before);
    expect(dry).toMatchObject({ dryRun: true, applied: false, total: 7, conflicts: [] });
    expect(dry.changed).toEqual([
      { id: "a1", from: "sub-1", to: "oid-1", source: "id-token" },
      { id: "a2", from: "sub-2", to: WORK_OID, source: "graph" },
      { id: "a7", from: "sub-7", to: PERSONAL_OID, source: "graph" },
    ]);
    expect(dry.unchanged).toEqual(["a4"]);
    expect(dry.unresolved).toEqual([
      { id: "a3", reason: "access-token-expired" },
      { id: "a5", reason: "graph-request-failed" },
      { id: "a6", reason: "no-oid-in-id-token-and-no-access-token" },
    ]);
    // The stored token was decrypted before it went to Graph.
    expect(fake.requests.some((r) => r.headers.authorization === "Bearer revoked-access-5")).toBe(true);
    expect(fake.requests.some((r) => r.headers.authorization === "Bearer plain-access-2")).toBe(true);

    const run = await migrateMicrosoftAccountIds({ auth, graphEndpoint });
    expect(run).toMatchObject({ applied: true, conflicts: [] });
    const migrated = { ...before, a1: "oid-1", a2: WORK_OID, a7: PERSONAL_OID };
    expect(accountIds(file)).toEqual(migrated);

    const again = await migrateMicrosoftAccountIds({ auth, graphEndpoint });
    expect(again).toMatchObject({ applied: false, changed: [], unchanged: ["a1", "a2", "a4", "a7"] });
    expect(accountIds(file)).toEqual(migrated);
  });

  it("after the migration a returning user signs in to the same account (keyed by oid)", async () => {
    const auth = await instance();
    await seedAccounts(file, SEEDS, true);
    await migrateMicrosoftAccountIds({ auth, graphEndpoint: fake.url("/v1.0") });
    fake.tokens = { id_token: unsignedJwt({ ...claims("sub-1", "oid-1"), email: "a1@contoso.example" }) };
    try {
      const browser = new Browser(BASE, auth.handler);
      const result = await signInThrough({ auth, browser, store: {}, cleanup: () => {} }, "microsoft", fake);
      expect(result.session?.user).toMatchObject({ id: "user-a1" });
      expect(result.accounts).toEqual([expect.objectContaining({ id: "a1", accountId: "oid-1" })]);
    } finally {
      fake.tokens = {};
    }
  });

  it("Graph ids: a GUID is the oid, a personal account's 16-hex id maps to its oid, anything else is refused", () => {
    expect(oidOfGraphId("48D31887-5FAD-4D73-A9F5-3C356E68A038")).toBe(WORK_OID);
    expect(oidOfGraphId(PERSONAL_ID)).toBe(PERSONAL_OID);
    for (const id of ["", "oid-2", "66f33332eca7ea8", "../me", "48d31887-5fad-4d73-a9f5-3c356e68a03g"]) {
      expect(oidOfGraphId(id)).toBeNull();
    }
  });

  it("refuses the whole run when two rows would share an accountId", async () => {
    const auth = await instance(false);
    await seedAccounts(
      file,
      [
        { id: "b1", accountId: "sub-1", idTokenClaims: claims("sub-1", "oid-1") },
        // The same person signed in after a 1.1 deploy without migration: a second row keyed by oid.
        { id: "b2", accountId: "oid-1", idTokenClaims: claims("sub-1", "oid-1") },
        { id: "b3", accountId: "sub-3", idTokenClaims: claims("sub-3", "oid-3") },
      ],
      false,
    );
    const before = accountIds(file);
    const report = await migrateMicrosoftAccountIds({ auth });
    expect(report.applied).toBe(false);
    expect(report.conflicts).toEqual([{ accountId: "oid-1", rowIds: ["b1", "b2"] }]);
    expect(accountIds(file)).toEqual(before);
  });

  it("the command prints a summary without tokens and exits 1 on conflicts", async () => {
    await instance();
    await seedAccounts(file, SEEDS, true);
    process.env.LATCHKEY_MIGRATION_DB = file;
    const out: string[] = [];
    const err: string[] = [];
    const io = { print: (l: string) => out.push(l), error: (l: string) => err.push(l), cwd: here };
    const args = ["--config", "./fixtures/migration-auth.ts", "--graph", fake.url("/v1.0")];

    expect(await runMigrateMicrosoftAccountsCli([...args, "--dry-run"], io)).toBe(0);
    expect(out.join("\n")).toContain("(dry run)");
    expect(out.join("\n")).toContain("to change:         3 (1 from the ID token, 2 from Graph)");
    expect(out.join("\n")).toContain("account a3: access-token-expired");
    expect(out.join("\n")).toContain("Nothing written (dry run).");
    expect(accountIds(file)).toMatchObject({ a1: "sub-1", a2: "sub-2", a7: "sub-7" });

    out.length = 0;
    expect(await runMigrateMicrosoftAccountsCli(args, io)).toBe(0);
    expect(out.join("\n")).toContain("Written: 3 account(s) updated.");
    expect(accountIds(file)).toMatchObject({ a1: "oid-1", a2: WORK_OID, a7: PERSONAL_OID });
    const printed = out.join("\n");
    for (const secret of ["plain-access", "revoked-access", "eyJ", SECRET])
      expect(printed).not.toContain(secret);

    db.prepare('UPDATE "account" SET "accountId" = ? WHERE "id" = ?').run("oid-4", "a6");
    db.prepare('UPDATE "account" SET "accountId" = ? WHERE "id" = ?').run("sub-4", "a4");
    out.length = 0;
    expect(await runMigrateMicrosoftAccountsCli(args, io)).toBe(1);
    expect(out.join("\n")).toContain("accountId oid-4 would be shared by accounts a4, a6");
    expect(out.join("\n")).toContain("Nothing written");

    expect(await runMigrateMicrosoftAccountsCli(["--dry-run"], io)).toBe(2);
    expect(err.join("\n")).toContain("Usage: latchkey-migrate-microsoft-accounts");
    expect(await runMigrateMicrosoftAccountsCli(["--config", "./fixtures/missing.ts"], io)).toBe(2);
  });

  it("the bin runs as a process (dry run)", async () => {
    await instance();
    await seedAccounts(file, SEEDS, true);
    const bin = join(here, "../src/bin/migrate-microsoft-accounts.ts");
    const child = spawn(
      process.execPath,
      [
        "--conditions=@latchkey/source",
        "--import",
        "tsx",
        bin,
        "--config",
        "./fixtures/migration-auth.ts",
        "--dry-run",
        "--graph",
        fake.url("/v1.0"),
      ],
      { cwd: here, env: { ...process.env, LATCHKEY_MIGRATION_DB: file } },
    );
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", () => {});
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stdout).toContain("rows examined:     7");
    expect(code).toBe(0);
    expect(accountIds(file)).toMatchObject({ a1: "sub-1" });
  });
});
