import { getMigrations } from "better-auth/db/migration";
import { lastLoginMethod as referenceLastLoginMethod } from "better-auth/plugins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { lastLoginMethod } from "@latchkey/last-login-method";
import { normalizeCaptured } from "./support/normalize.ts";
import { responseCookies, type ParsedCookie } from "./support/cookies.ts";
import { signUp } from "./support/flows.ts";
import { BASE_URL, createPair, jsonPost, SECRET, url, type Pair } from "./support/instances.ts";
import { sendBoth } from "./support/send-both.ts";
import { createSocialPair, LATCHKEY_PROVIDERS, throughIdP, type SocialPair } from "./support/social-pair.ts";
import { onBoth, startedState } from "./support/social-wire.ts";
import { openSqlite, tempDatabaseFile, type SqliteConnection } from "./support/sqlite.ts";

/**
 * `@latchkey/last-login-method` beside the reference's `lastLoginMethod()` (better-auth/plugins):
 * the script-readable cookie (name, value, attributes) after sign-up, sign-in and a social
 * callback, the optional `user.lastLoginMethod` column (schema both ways, custom column name,
 * the values written) and the refusal of a client-set value.
 */
const COOKIE = "better-auth.last_used_login_method";
const ada = { name: "Ada", email: "ada@example.com", password: "password-1234" };

const lastLoginCookie = (cookies: ParsedCookie[]): ParsedCookie | undefined =>
  cookies.find((c) => c.name === COOKIE);

/** Both sides with the plugin given the same options. */
function pairWith(
  options: Parameters<typeof lastLoginMethod>[0] & Parameters<typeof referenceLastLoginMethod>[0] = {},
  baseURL?: string,
): Promise<Pair> {
  return createPair({
    baseURL,
    reference: { plugins: [referenceLastLoginMethod(options)] },
    latchkey: { plugins: [lastLoginMethod(options)] },
  });
}

describe("last-login-method: the cookie", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await pairWith();
    await signUp(pair.reference, ada);
  });
  afterAll(() => pair.close());

  const expected = {
    name: COOKIE,
    value: "email",
    attributes: { "max-age": "2592000", path: "/", samesite: "Lax" },
  };

  it("sign-up: the same response on both, with `better-auth.last_used_login_method=email` (Path=/, SameSite=Lax, 30 days, no HttpOnly)", async () => {
    const both = await sendBoth(pair, jsonPost("/sign-up/email", { ...ada, email: "new@example.com" }));
    expect(both.reference.status).toBe(200);
    expect(lastLoginCookie(both.reference.setCookie)).toEqual(expected);
    expect(normalizeCaptured(both.latchkey, both.known)).toEqual(
      normalizeCaptured(both.reference, both.known),
    );
    expect(both.writes.latchkey).toEqual(both.writes.reference);
  });

  it("sign-in: the same response on both, the same cookie", async () => {
    const both = await sendBoth(
      pair,
      jsonPost("/sign-in/email", { email: ada.email, password: ada.password }),
    );
    expect(both.reference.status).toBe(200);
    expect(lastLoginCookie(both.reference.setCookie)).toEqual(expected);
    expect(normalizeCaptured(both.latchkey, both.known)).toEqual(
      normalizeCaptured(both.reference, both.known),
    );
  });

  it("a failed sign-in, get-session and sign-out: no cookie on either side", async () => {
    const wrong = await sendBoth(
      pair,
      jsonPost("/sign-in/email", { email: ada.email, password: "wrong-password" }),
    );
    expect(wrong.reference.status).toBe(401);
    expect(normalizeCaptured(wrong.latchkey)).toEqual(normalizeCaptured(wrong.reference));
    const { cookie } = await signUp(pair.reference, { ...ada, email: "out@example.com" });
    for (const request of [
      new Request(url("/get-session"), { headers: { cookie } }),
      jsonPost("/sign-out", {}, { cookie }),
    ]) {
      const both = await sendBoth(pair, request);
      expect(both.reference.status).toBe(200);
      expect(lastLoginCookie(both.reference.setCookie)).toBeUndefined();
      expect(lastLoginCookie(both.latchkey.setCookie)).toBeUndefined();
    }
  });
});

describe("last-login-method: the cookie on https (Secure, literal name)", () => {
  const HTTPS = "https://localhost:3000";
  let pair: Pair;
  beforeAll(async () => {
    pair = await pairWith({}, HTTPS);
  });
  afterAll(() => pair.close());

  it("the session cookie is __Secure-…; the method cookie keeps its literal name and takes Secure", async () => {
    const request = new Request(url("/sign-up/email", HTTPS), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ada),
    });
    const both = await sendBoth(pair, request);
    expect(both.reference.setCookie.map((c) => c.name).sort()).toEqual([
      "__Secure-better-auth.session_token",
      COOKIE,
    ]);
    expect(lastLoginCookie(both.reference.setCookie)).toEqual({
      name: COOKIE,
      value: "email",
      attributes: { "max-age": "2592000", path: "/", samesite: "Lax", secure: true },
    });
    expect(normalizeCaptured(both.latchkey, both.known)).toEqual(
      normalizeCaptured(both.reference, both.known),
    );
  });
});

describe("last-login-method: custom cookieName and maxAge", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await pairWith({ cookieName: "how_i_signed_in", maxAge: 3600 });
  });
  afterAll(() => pair.close());

  it("both write the configured name and lifetime", async () => {
    const both = await sendBoth(pair, jsonPost("/sign-up/email", ada));
    expect(both.reference.setCookie.find((c) => c.name === "how_i_signed_in")).toEqual({
      name: "how_i_signed_in",
      value: "email",
      attributes: { "max-age": "3600", path: "/", samesite: "Lax" },
    });
    expect(normalizeCaptured(both.latchkey, both.known)).toEqual(
      normalizeCaptured(both.reference, both.known),
    );
  });
});

for (const latchkeyProvider of LATCHKEY_PROVIDERS) {
  describe(`last-login-method: a social callback (Latchkey with ${latchkeyProvider})`, () => {
    let pair: SocialPair;
    beforeAll(async () => {
      pair = await createSocialPair({
        latchkeyProvider,
        reference: { plugins: [referenceLastLoginMethod({ storeInDatabase: true })] },
        latchkey: { plugins: [lastLoginMethod({ storeInDatabase: true })] },
      });
    });
    afterAll(() => pair.close());

    it("the /callback/idp redirect that starts the session writes `idp` on both; the new user's column says `idp`", async () => {
      const both = await onBoth(pair, async (side) => {
        const browser = pair.browser(side);
        const started = await startedState(browser, { callbackURL: "/dashboard" });
        const callbackURL = await throughIdP(pair.idp, browser, "alice-sub", started.url);
        const response = await browser.send(callbackURL.href);
        const stored = pair.db
          .prepare(`SELECT "lastLoginMethod" AS m FROM "user" WHERE "email" = ?`)
          .all(["alice@example.com"]) as Array<{ m: unknown }>;
        return {
          status: response.status,
          location: response.headers.get("location"),
          cookie: lastLoginCookie(responseCookies(response)),
          stored: stored.map((r) => r.m),
        };
      });
      expect(both.reference).toEqual({
        status: 302,
        location: "/dashboard",
        cookie: {
          name: COOKIE,
          value: "idp",
          attributes: { "max-age": "2592000", path: "/", samesite: "Lax" },
        },
        stored: ["idp"],
      });
      expect(both.latchkey).toEqual(both.reference);
    });

    it("a failed callback (state_mismatch) writes no cookie on either side", async () => {
      const both = await onBoth(pair, async (side) => {
        const response = await pair[side](new Request(url(`/callback/idp?state=${"A".repeat(32)}&code=abc`)));
        return { status: response.status, names: responseCookies(response).map((c) => c.name) };
      });
      expect(both.reference).toEqual({ status: 302, names: [] });
      expect(both.latchkey).toEqual(both.reference);
    });
  });
}

describe("last-login-method: the user.lastLoginMethod column (storeInDatabase)", () => {
  const referenceOptions = (database: SqliteConnection, column?: string) => ({
    database,
    secret: SECRET,
    baseURL: BASE_URL,
    emailAndPassword: { enabled: true },
    logger: { disabled: true },
    plugins: [
      referenceLastLoginMethod({
        storeInDatabase: true,
        ...(column ? { schema: { user: { lastLoginMethod: column } } } : {}),
      }),
    ],
  });
  const latchkeyAuth = (database: SqliteConnection, column?: string) =>
    createAuth({
      database: kyselyAdapter(database),
      secret: SECRET,
      baseURL: BASE_URL,
      emailAndPassword: { enabled: true },
      logger: { disabled: true },
      plugins: [
        lastLoginMethod({
          storeInDatabase: true,
          ...(column ? { schema: { user: { lastLoginMethod: column } } } : {}),
        }),
      ],
    });
  const userColumns = (db: SqliteConnection) =>
    db.prepare(`PRAGMA table_info("user")`).all([]) as Array<{ name: string; type: string; notnull: number }>;
  const ddl = (db: SqliteConnection) =>
    db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all([]);

  for (const column of [undefined, "last_login_method"]) {
    const physical = column ?? "lastLoginMethod";
    describe(`column ${physical}`, () => {
      const files = [tempDatabaseFile(), tempDatabaseFile()];
      const connections: SqliteConnection[] = [];
      const open = (file: string) => {
        const connection = openSqlite(file);
        connections.push(connection);
        return connection;
      };
      afterAll(() => {
        for (const c of connections) c.close();
        for (const f of files) f.remove();
      });

      it("a database migrated by the reference passes Latchkey's schema check; createTables changes nothing", async () => {
        const db = open(files[0]!.file);
        await (await getMigrations(referenceOptions(db, column))).runMigrations();
        const added = userColumns(db).find((c) => c.name === physical);
        expect({ type: added?.type.toLowerCase(), notnull: added?.notnull }).toEqual({
          type: "text",
          notnull: 0,
        });
        const auth = latchkeyAuth(open(files[0]!.file), column);
        expect(await auth.$context.adapter.findSchemaProblems?.()).toEqual([]);
        const before = ddl(db);
        await auth.createTables();
        expect(ddl(db)).toEqual(before);
      });

      it("a database made by Latchkey's createTables leaves the reference's migrations nothing to do; same DDL", async () => {
        const db = open(files[1]!.file);
        await latchkeyAuth(db, column).createTables();
        const { toBeCreated, toBeAdded, toBeAddedIndexes } = await getMigrations(
          referenceOptions(db, column),
        );
        expect({ toBeCreated, toBeAdded, toBeAddedIndexes }).toEqual({
          toBeCreated: [],
          toBeAdded: [],
          toBeAddedIndexes: [],
        });
        expect(ddl(db)).toEqual(ddl(open(files[0]!.file)));
      });
    });
  }

  describe("values, on one database", () => {
    let pair: Pair;
    beforeAll(async () => {
      pair = await pairWith({
        storeInDatabase: true,
        schema: { user: { lastLoginMethod: "last_login_method" } },
      });
    });
    afterAll(() => pair.close());
    const stored = (email: string) =>
      (
        pair.db
          .prepare(`SELECT "last_login_method" AS m FROM "user" WHERE "email" = ?`)
          .all([email]) as Array<{
          m: unknown;
        }>
      ).map((r) => r.m);

    it("sign-up: the same answer (the user carries lastLoginMethod: email) and the same column value", async () => {
      const both = await sendBoth(pair, jsonPost("/sign-up/email", ada));
      expect(both.reference.status).toBe(200);
      expect((both.reference.body as { user: Record<string, unknown> }).user.lastLoginMethod).toBe("email");
      expect(normalizeCaptured(both.latchkey, both.known)).toEqual(
        normalizeCaptured(both.reference, both.known),
      );
      for (const side of ["reference", "latchkey"] as const) {
        await pair[side](jsonPost("/sign-up/email", { ...ada, email: `${side}@example.com` }));
        expect(stored(`${side}@example.com`), side).toEqual(["email"]);
      }
    });

    it("a sign-up body setting lastLoginMethod: both 400 FIELD_NOT_ALLOWED, nothing written", async () => {
      const both = await sendBoth(
        pair,
        jsonPost("/sign-up/email", { ...ada, email: "forged@example.com", lastLoginMethod: "forged" }),
      );
      expect(both.reference.status).toBe(400);
      expect(both.reference.body).toEqual({
        code: "FIELD_NOT_ALLOWED",
        message: "lastLoginMethod is not allowed to be set",
      });
      expect(normalizeCaptured(both.latchkey)).toEqual(normalizeCaptured(both.reference));
      expect(both.writes.reference).toEqual({ user: 0, session: 0, account: 0, verification: 0 });
      expect(both.writes.latchkey).toEqual(both.writes.reference);
    });

    it("a sign-in on one side overwrites a value the other side wrote", async () => {
      await signUp(pair.latchkey, { ...ada, email: "cross@example.com" });
      pair.db
        .prepare(`UPDATE "user" SET "last_login_method" = 'google' WHERE "email" = ?`)
        .run(["cross@example.com"]);
      const signIn = await pair.reference(
        jsonPost("/sign-in/email", { email: "cross@example.com", password: ada.password }),
      );
      expect(signIn.status).toBe(200);
      expect(stored("cross@example.com")).toEqual(["email"]);
      pair.db
        .prepare(`UPDATE "user" SET "last_login_method" = 'google' WHERE "email" = ?`)
        .run(["cross@example.com"]);
      await pair.latchkey(jsonPost("/sign-in/email", { email: "cross@example.com", password: ada.password }));
      expect(stored("cross@example.com")).toEqual(["email"]);
    });
  });
});

describe("last-login-method: divergences (DIVERGENCES.md)", () => {
  let pair: Pair;
  beforeAll(async () => {
    // A resolver that names a method for sign-out too: only the session-cookie test decides.
    const customResolveMethod = (ctx: { path?: string }) => (ctx.path === "/sign-out" ? "email" : null);
    pair = await createPair({
      reference: { plugins: [referenceLastLoginMethod({ customResolveMethod })] },
      latchkey: { plugins: [lastLoginMethod({ customResolveMethod })] },
    });
  });
  afterAll(() => pair.close());

  it("a sign-out expiring the session cookie: the reference writes the method cookie (the name appears in a Set-Cookie), Latchkey does not (DIVERGENCES.md row 48)", async () => {
    const { cookie } = await signUp(pair.reference, ada);
    const both = await sendBoth(pair, jsonPost("/sign-out", {}, { cookie }));
    expect(both.reference.status).toBe(200);
    expect(
      both.reference.setCookie.find((c) => c.name === "better-auth.session_token")?.attributes["max-age"],
    ).toBe("0");
    expect(lastLoginCookie(both.reference.setCookie)?.value).toBe("email");
    expect(lastLoginCookie(both.latchkey.setCookie)).toBeUndefined();
    const others = (cookies: ParsedCookie[]) => cookies.filter((c) => c.name !== COOKIE);
    expect(normalizeCaptured({ ...both.latchkey, setCookie: others(both.latchkey.setCookie) })).toEqual(
      normalizeCaptured({ ...both.reference, setCookie: others(both.reference.setCookie) }),
    );
  });
});
