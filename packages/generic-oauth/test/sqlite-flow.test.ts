import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAuth } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { Browser, type TestIdP } from "@latchkey/test-support";
import { genericOAuth } from "../src/index.ts";
import { AUTH, BASE, idpConfig, SECRET, sessionOf, signIn, startAliceIdP } from "./support/instance.ts";

let idp: TestIdP;
let dir: string;
beforeAll(async () => {
  idp = await startAliceIdP();
  dir = mkdtempSync(join(tmpdir(), "latchkey-generic-oauth-"));
});
afterAll(async () => {
  await idp.close();
  rmSync(dir, { recursive: true, force: true });
});

it("stores the user, the account (tokens, scope) and the session in a real SQLite file", async () => {
  const file = join(dir, "auth.sqlite");
  const database = new Database(file);
  const auth = createAuth({
    database: kyselyAdapter(database),
    secret: SECRET,
    baseURL: BASE,
    user: { additionalFields: { nickname: { type: "string", required: false } } },
    plugins: [
      genericOAuth({
        config: [idpConfig(idp, { mapProfileToUser: (p) => ({ nickname: `n-${String(p.name)}` }) })],
      }),
    ],
  });
  await auth.createTables();
  const browser = new Browser(BASE, auth.handler);
  idp.login("alice-sub");
  const landed = await signIn(browser, { provider: "idp" });
  expect(landed.pathname).toBe("/dashboard");
  expect((await sessionOf(browser))?.user).toMatchObject({ email: "alice@example.com", nickname: "n-Alice" });

  // Read back through a second connection, as another process would.
  const reader = new Database(file, { readonly: true });
  try {
    const account = reader.prepare(`SELECT * FROM "account" WHERE "providerId" = 'idp'`).get() as Record<
      string,
      unknown
    >;
    expect(account.accountId).toBe("alice-sub");
    expect(account.accessToken).toBeTypeOf("string");
    expect(account.idToken).toBeTypeOf("string");
    expect(String(account.scope).split(",")).toEqual(expect.arrayContaining(["openid", "email", "profile"]));
    const user = reader.prepare(`SELECT * FROM "user" WHERE "id" = ?`).get(account.userId) as Record<
      string,
      unknown
    >;
    expect(user).toMatchObject({ email: "alice@example.com", nickname: "n-Alice", emailVerified: 1 });
  } finally {
    reader.close();
  }
  const res = await browser.post(`${AUTH}/sign-out`, {});
  expect(((await res.json()) as { url?: string }).url).toContain("/session/end");
  database.close();
});
