import { createAuthClient } from "better-auth/client";
import { getMigrations } from "better-auth/db/migration";
import { usernameClient } from "better-auth/client/plugins";
import { username as referenceUsername } from "better-auth/plugins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { username, type UsernameOptions } from "@latchkey/username";
import { capture, type Captured } from "./support/capture.ts";
import { jarFetch } from "./support/client-fetch.ts";
import { signUp } from "./support/flows.ts";
import { BASE_PATH, BASE_URL, createPair, jsonPost, SECRET, type Handler, type Pair } from "./support/instances.ts";
import { normalizeCaptured } from "./support/normalize.ts";
import { listen } from "./support/server.ts";
import { tempDatabases, type SqliteConnection } from "./support/sqlite.ts";
import { countRows } from "./support/tables.ts";

/**
 * `@latchkey/username` beside the reference's `username()` on one database: the columns the
 * reference's migration made are the ones Latchkey uses, users made on one side sign in by
 * username on the other, and every answer is compared; the reference's `usernameClient()`
 * against Latchkey; divergence rows 97-98.
 */
const PASSWORD = "password-1234";

function pairWith(options?: UsernameOptions): Promise<Pair> {
  return createPair({
    reference: { plugins: [referenceUsername(options as Parameters<typeof referenceUsername>[0])] },
    latchkey: { plugins: [username(options)] },
  });
}

const storedUser = (pair: Pair, email: string) =>
  pair.db.prepare(`select username, displayUsername from "user" where email = ?`).all([email])[0];

/** Sends the same request to both; the two captures, normalised for minted ids, tokens and dates. */
async function both(pair: Pair, request: () => Request, known: Set<string> = new Set()): Promise<[Captured, Captured]> {
  const ref = normalizeCaptured(await capture(await pair.reference(request())), known);
  const lk = normalizeCaptured(await capture(await pair.latchkey(request())), known);
  return [ref, lk];
}

describe("username: the user columns, both ways", () => {
  const ddl = (db: SqliteConnection) => db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all([]);
  const dbs = tempDatabases(2);
  afterAll(() => dbs.dispose());
  const referenceOptions = (db: SqliteConnection) => ({ database: db, secret: SECRET, baseURL: BASE_URL, plugins: [referenceUsername()] });
  const latchkeyAuth = (db: SqliteConnection) =>
    createAuth({ database: kyselyAdapter(db), secret: SECRET, baseURL: BASE_URL, logger: { disabled: true }, plugins: [username()] });

  it("a database migrated by the reference passes Latchkey's schema check; createTables changes nothing", async () => {
    const db = dbs.open(0);
    await (await getMigrations(referenceOptions(db))).runMigrations();
    const auth = latchkeyAuth(dbs.open(0));
    expect(await auth.$context.adapter.findSchemaProblems?.()).toEqual([]);
    const before = ddl(db);
    await auth.createTables();
    expect(ddl(db)).toEqual(before);
  });

  it("a database made by Latchkey leaves the reference's migrations nothing to do; the same DDL", async () => {
    const db = dbs.open(1);
    await latchkeyAuth(db).createTables();
    const { toBeCreated, toBeAdded, toBeAddedIndexes } = await getMigrations(referenceOptions(db));
    expect({ toBeCreated, toBeAdded, toBeAddedIndexes }).toEqual({ toBeCreated: [], toBeAdded: [], toBeAddedIndexes: [] });
    expect(ddl(db)).toEqual(ddl(dbs.open(0)));
  });
});

describe("username: the same rows and answers", () => {
  let pair: Pair;
  let known: Set<string>;
  beforeAll(async () => {
    pair = await pairWith();
    const ref = await signUp(pair.reference, { email: "ref@example.com", password: PASSWORD, name: "R", username: "Ref.User" } as never);
    const lk = await signUp(pair.latchkey, { email: "lk@example.com", password: PASSWORD, name: "L", username: "Lk.User" } as never);
    known = new Set([ref.userId, lk.userId]);
  });
  afterAll(() => pair.close());

  it("sign-up stores the same columns on both sides", () => {
    expect(storedUser(pair, "ref@example.com")).toEqual({ username: "ref.user", displayUsername: "Ref.User" });
    expect(storedUser(pair, "lk@example.com")).toEqual({ username: "lk.user", displayUsername: "Lk.User" });
  });

  it.each([
    ["a user made by the reference", { username: "REF.USER", password: PASSWORD }],
    ["a user made by Latchkey", { username: "lk.user", password: PASSWORD }],
    ["with callbackURL", { username: "lk.user", password: PASSWORD, callbackURL: "/dashboard" }],
    ["with rememberMe false", { username: "ref.user", password: PASSWORD, rememberMe: false }],
  ])("sign-in, %s: the same answer and cookies", async (_name, body) => {
    const [ref, lk] = await both(pair, () => jsonPost("/sign-in/username", body), known);
    expect(ref.status).toBe(200);
    expect(lk).toEqual(ref);
  });

  it.each([
    ["an unknown username", { username: "nobody", password: PASSWORD }],
    ["a wrong password", { username: "ref.user", password: "wrong-password" }],
    ["an empty username", { username: "", password: PASSWORD }],
    ["an empty password", { username: "ref.user", password: "" }],
    ["a short username", { username: "ab", password: PASSWORD }],
    ["a long username", { username: "a".repeat(31), password: PASSWORD }],
    ["an invalid username", { username: "has space", password: PASSWORD }],
    ["a long password", { username: "ref.user", password: "x".repeat(200) }],
    ["no password", { username: "ref.user" }],
    ["a number username", { username: 12345, password: PASSWORD }],
  ])("sign-in with %s: the same refusal", async (_name, body) => {
    const [ref, lk] = await both(pair, () => jsonPost("/sign-in/username", body));
    expect(ref.status).toBeGreaterThanOrEqual(400);
    expect(lk).toEqual(ref);
  });

  it.each(["/sign-in/username", "/is-username-available"])("%s as a form post: the same 415", async (path) => {
    const form = () =>
      new Request(`http://localhost:3000/api/auth${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `username=ref.user&password=${PASSWORD}`,
      });
    const [ref, lk] = await both(pair, form);
    expect(ref.status).toBe(415);
    expect(lk).toEqual(ref);
  });

  it.each([
    ["taken (other case)", { username: "Ref.User" }],
    ["free", { username: "free_one" }],
    ["empty", { username: "" }],
    ["short", { username: "ab" }],
    ["invalid", { username: "a b c" }],
    ["missing", {}],
  ])("is-username-available, %s: the same answer", async (_name, body) => {
    const [ref, lk] = await both(pair, () => jsonPost("/is-username-available", body));
    expect(lk).toEqual(ref);
  });

  it.each([
    ["a taken username", { username: "LK.user" }],
    ["a short username", { username: "ab" }],
    ["an invalid username", { username: "no way!" }],
  ])("sign-up with %s: the same 400, nothing written", async (_name, fields) => {
    const before = countRows(pair.db);
    const body = (side: string) => ({ email: `refused-${side}@example.com`, password: PASSWORD, name: "X", ...fields });
    const ref = await capture(await pair.reference(jsonPost("/sign-up/email", body("r"))));
    const lk = await capture(await pair.latchkey(jsonPost("/sign-up/email", body("l"))));
    expect(ref.status).toBe(400);
    expect(lk).toEqual(ref);
    expect(countRows(pair.db)).toEqual(before);
  });

  it("sign-up with only a displayUsername: both take it as the username", async () => {
    await signUp(pair.reference, { email: "dr@example.com", password: PASSWORD, name: "D", displayUsername: "Disp_R" } as never);
    await signUp(pair.latchkey, { email: "dl@example.com", password: PASSWORD, name: "D", displayUsername: "Disp_L" } as never);
    expect(storedUser(pair, "dr@example.com")).toEqual({ username: "disp_r", displayUsername: "Disp_R" });
    expect(storedUser(pair, "dl@example.com")).toEqual({ username: "disp_l", displayUsername: "Disp_L" });
  });

  it("update-user: a taken name refused alike; a free one set alike", async () => {
    const a = await signUp(pair.reference, { email: "ua@example.com", password: PASSWORD, name: "A", username: "upd_a" } as never);
    const b = await signUp(pair.latchkey, { email: "ub@example.com", password: PASSWORD, name: "B", username: "upd_b" } as never);
    const update = (cookie: string, name: string) => () => jsonPost("/update-user", { username: name }, { cookie });
    const refTaken = await capture(await pair.reference(update(a.cookie, "upd_b")()));
    const lkTaken = await capture(await pair.latchkey(update(b.cookie, "upd_a")()));
    expect(refTaken.status).toBe(400);
    expect(lkTaken).toEqual(refTaken);
    expect((await pair.reference(update(b.cookie, "New_B")())).status).toBe(200);
    expect((await pair.latchkey(update(a.cookie, "New_A")())).status).toBe(200);
    expect(storedUser(pair, "ua@example.com")).toEqual({ username: "new_a", displayUsername: "upd_a" });
    expect(storedUser(pair, "ub@example.com")).toEqual({ username: "new_b", displayUsername: "upd_b" });
  });

  it("row 97: a number as username — the reference answers sign-up 422 FAILED_TO_CREATE_USER and update-user 500, Latchkey 400 VALIDATION_ERROR; neither writes", async () => {
    const before = countRows(pair.db);
    const body = (side: string) => ({ email: `num-${side}@example.com`, password: PASSWORD, name: "N", username: 12345 });
    const ref = await capture(await pair.reference(jsonPost("/sign-up/email", body("r"))));
    const lk = await capture(await pair.latchkey(jsonPost("/sign-up/email", body("l"))));
    expect(ref.status).toBe(422);
    expect(ref.body).toEqual({ code: "FAILED_TO_CREATE_USER", message: "Failed to create user" });
    const validation = { code: "VALIDATION_ERROR", message: "[body.username] Invalid input: expected string, received number" };
    expect(lk.status).toBe(400);
    expect(lk.body).toEqual(validation);
    expect(countRows(pair.db)).toEqual(before);

    const who = await signUp(pair.reference, { email: "num-upd@example.com", password: PASSWORD, name: "N", username: "num_upd" } as never);
    const update = () => jsonPost("/update-user", { username: 12345 }, { cookie: who.cookie });
    const refUpdate = await capture(await pair.reference(update()));
    const lkUpdate = await capture(await pair.latchkey(update()));
    expect(refUpdate.status).toBe(500);
    expect(lkUpdate).toMatchObject({ status: 400, body: validation });
    expect(storedUser(pair, "num-upd@example.com")).toEqual({ username: "num_upd", displayUsername: "num_upd" });
  });
});

describe("username: row 98, validationOrder on sign-in", () => {
  let pair: Pair;
  const options: UsernameOptions = {
    usernameNormalization: (name) => name.replace(/-/g, "").toLowerCase(),
    usernameValidator: (name) => /^[a-z0-9]+$/.test(name),
    validationOrder: { username: "post-normalization" },
  };
  beforeAll(async () => {
    pair = await pairWith(options);
    await signUp(pair.latchkey, { email: "order@example.com", password: PASSWORD, name: "O", username: "ab-cd" } as never);
  });
  afterAll(() => pair.close());

  it("row 98: post-normalization — the reference's sign-in checks the name as sent (422), Latchkey the normalised one (200)", async () => {
    expect(storedUser(pair, "order@example.com")).toEqual({ username: "abcd", displayUsername: "ab-cd" });
    const ref = await capture(await pair.reference(jsonPost("/sign-in/username", { username: "ab-cd", password: PASSWORD })));
    const lk = await capture(await pair.latchkey(jsonPost("/sign-in/username", { username: "ab-cd", password: PASSWORD })));
    expect(ref.status).toBe(422);
    expect(ref.body).toMatchObject({ code: "INVALID_USERNAME" });
    expect(lk.status).toBe(200);
    // The reference's sign-up (its hook) does check the normalised name, as Latchkey does everywhere.
    const refSignUp = await pair.reference(
      jsonPost("/sign-up/email", { email: "order2@example.com", password: PASSWORD, name: "O", username: "ef-gh" }),
    );
    expect(refSignUp.status).toBe(200);
  });
});

describe("username: the reference's usernameClient() over real HTTP", () => {
  async function flow(side: "reference" | "latchkey"): Promise<unknown> {
    const server = await listen();
    const pair = await createPair({
      baseURL: server.origin,
      reference: { plugins: [referenceUsername()] },
      latchkey: { plugins: [username()] },
    });
    server.use(pair[side] as Handler);
    try {
      const jar = jarFetch();
      const auth = createAuthClient({
        baseURL: `${server.origin}${BASE_PATH}`,
        fetchOptions: { customFetchImpl: jar.fetch },
        plugins: [usernameClient()],
      });
      const free = await auth.isUsernameAvailable({ username: "Client_Name" });
      await auth.signUp.email({ email: "client@example.com", password: PASSWORD, name: "C", username: "Client_Name" });
      const takenNow = await auth.isUsernameAvailable({ username: "client_name" });
      await auth.signOut();
      const signedIn = await auth.signIn.username({ username: "CLIENT_NAME", password: PASSWORD });
      const session = await auth.getSession();
      const refused = await auth.signIn.username({ username: "client_name", password: "wrong-password" });
      return {
        free: free.data,
        takenNow: takenNow.data,
        signedIn: { username: signedIn.data?.user.username, displayUsername: signedIn.data?.user.displayUsername, error: signedIn.error },
        session: session.data?.user.email,
        refused: refused.error,
        calls: jar.calls,
      };
    } finally {
      pair.close();
      await server.close();
    }
  }

  it("the same calls and results against both servers", async () => {
    const ref = await flow("reference");
    expect(ref).toMatchObject({ free: { available: true }, takenNow: { available: false }, session: "client@example.com" });
    expect(await flow("latchkey")).toEqual(ref);
  });
});
