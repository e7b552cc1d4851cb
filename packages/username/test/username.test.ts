import { client, rowCounts, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { username } from "../src/index.ts";
import { PASSWORD, signInUsername, signUpWith, storedUser, usernameInstance } from "./instance.ts";

const invalidCredentials = { code: "INVALID_USERNAME_OR_PASSWORD", message: "Invalid username or password" };
const taken = { code: "USERNAME_IS_ALREADY_TAKEN", message: "Username is already taken. Please try another." };

describe("default options (SQLite)", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await usernameInstance("sqlite");
  });
  afterAll(() => t.close());

  it("sign-up stores username lower-cased and displayUsername as written; the answer carries both", async () => {
    const { answer } = await signUpWith(t, "ada@example.com", { username: "Ada.Lovelace" });
    expect(answer.status).toBe(200);
    expect(answer.json?.user).toMatchObject({ username: "ada.lovelace", displayUsername: "Ada.Lovelace" });
    expect(await storedUser(t, "ada@example.com")).toMatchObject({ username: "ada.lovelace", displayUsername: "Ada.Lovelace" });
  });

  it("sign-in by username, any case: the session, the cookie and the user", async () => {
    const answer = await signInUsername(t, { username: "ADA.LOVELACE", password: PASSWORD });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ redirect: false, user: { email: "ada@example.com", username: "ada.lovelace" } });
    expect(answer.json).not.toHaveProperty("url");
    expect(answer.headers.getSetCookie().some((c) => c.startsWith("better-auth.session_token="))).toBe(true);
  });

  it("callbackURL: 200 with redirect true, url and a Location header", async () => {
    const answer = await signInUsername(t, { username: "ada.lovelace", password: PASSWORD, callbackURL: "/home" });
    expect(answer.json).toMatchObject({ redirect: true, url: "/home" });
    expect(answer.headers.get("location")).toBe("/home");
  });

  it("no enumeration: an unknown username and a wrong password get the same 401, with no cookie", async () => {
    const unknown = await signInUsername(t, { username: "nobody_here", password: PASSWORD });
    const wrong = await signInUsername(t, { username: "ada.lovelace", password: "not the password" });
    for (const answer of [unknown, wrong]) {
      expect(answer.status).toBe(401);
      expect(answer.json).toEqual(invalidCredentials);
      expect(answer.headers.getSetCookie()).toEqual([]);
    }
  });

  it("no enumeration by timing: unknown usernames cost what wrong passwords cost (both run scrypt)", async () => {
    const time = async (name: string) => {
      const started = performance.now();
      await signInUsername(t, { username: name, password: "not the password" });
      return performance.now() - started;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const unknown: number[] = [];
    const known: number[] = [];
    for (let i = 0; i < 7; i++) {
      unknown.push(await time(`ghost_${i}`));
      known.push(await time("ada.lovelace"));
    }
    // Bound: the medians within a factor of three of each other (scrypt dominates both; a
    // path that skipped it would be two orders of magnitude faster). Wide for a shared machine.
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(1 / 3);
    expect(ratio).toBeLessThan(3);
  });

  it("a user without a password (no credential account) gets the same 401", async () => {
    const { answer } = await signUpWith(t, "nopw@example.com", { username: "no_password" });
    const userId = (answer.json?.user as { id: string }).id;
    await t.auth.$context.adapter.deleteMany({ model: "account", where: [{ field: "userId", value: userId }] });
    expect((await signInUsername(t, { username: "no_password", password: PASSWORD })).json).toEqual(invalidCredentials);
  });

  it.each([
    [{ username: "", password: PASSWORD }, 401, "INVALID_USERNAME_OR_PASSWORD"],
    [{ username: "ada.lovelace", password: "" }, 401, "INVALID_USERNAME_OR_PASSWORD"],
    [{ username: "ab", password: PASSWORD }, 422, "USERNAME_TOO_SHORT"],
    [{ username: "a".repeat(31), password: PASSWORD }, 422, "USERNAME_TOO_LONG"],
    [{ username: "ada lovelace", password: PASSWORD }, 422, "INVALID_USERNAME"],
    [{ username: "ada.lovelace", password: "x".repeat(200) }, 400, "PASSWORD_TOO_LONG"],
  ])("sign-in %j → %i %s", async (body, status, code) => {
    const answer = await signInUsername(t, body);
    expect(answer.status).toBe(status);
    expect(answer.json).toMatchObject({ code });
  });

  it("is-username-available: false for a taken name in any case, true for a free one, 422 for bad ones", async () => {
    const c = client(t.auth);
    expect((await c.post("/is-username-available", { username: "Ada.Lovelace" })).json).toEqual({ available: false });
    expect((await c.post("/is-username-available", { username: "free_name" })).json).toEqual({ available: true });
    for (const [name, code] of [["", "INVALID_USERNAME"], ["ab", "USERNAME_TOO_SHORT"], ["no spaces", "INVALID_USERNAME"]] as const) {
      const answer = await c.post("/is-username-available", { username: name });
      expect(answer.status).toBe(422);
      expect(answer.json).toMatchObject({ code });
    }
  });

  it("sign-up with a taken or invalid username: 400 with the code, nothing written", async () => {
    const before = await rowCounts(t.auth);
    const cases: Array<[string, Record<string, unknown>]> = [
      [taken.code, { username: "ADA.lovelace" }],
      ["USERNAME_TOO_SHORT", { username: "ab" }],
      ["USERNAME_TOO_LONG", { username: "x".repeat(31) }],
      ["INVALID_USERNAME", { username: "bad name!" }],
    ];
    for (const [code, fields] of cases) {
      const { answer } = await signUpWith(t, `refused-${code}@example.com`, fields);
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ code });
    }
    expect(await rowCounts(t.auth)).toEqual(before);
  });

  it("sign-up with only a valid displayUsername takes it as the username too", async () => {
    const { answer } = await signUpWith(t, "display@example.com", { displayUsername: "Grace_H" });
    expect(answer.json?.user).toMatchObject({ username: "grace_h", displayUsername: "Grace_H" });
    const { answer: invalid } = await signUpWith(t, "display2@example.com", { displayUsername: "Grace Hopper" });
    expect(invalid.json?.user).toMatchObject({ username: null, displayUsername: "Grace Hopper" });
  });

  it("update-user: a free name is set, the user's own name in another case is fine, another's is taken", async () => {
    const { browser } = await signUpWith(t, "upd@example.com", { username: "updater" });
    expect((await browser.post("/update-user", { username: "Renamed" })).status).toBe(200);
    expect(await storedUser(t, "upd@example.com")).toMatchObject({ username: "renamed" });
    expect((await browser.post("/update-user", { username: "RENAMED" })).status).toBe(200);
    const answer = await browser.post("/update-user", { username: "ada.lovelace" });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(taken);
    expect((await browser.post("/update-user", { username: "x" })).json).toMatchObject({ code: "USERNAME_TOO_SHORT" });
  });

  it("server-side writes are normalised and validated by the database hooks", async () => {
    const { answer } = await signUpWith(t, "server@example.com", {});
    const id = (answer.json?.user as { id: string }).id;
    const updated = await t.auth.$context.internalAdapter.updateUser(id, { username: "Server.Side" });
    expect(updated).toMatchObject({ username: "server.side" });
    await expect(t.auth.$context.internalAdapter.updateUser(id, { username: "no" })).rejects.toMatchObject({
      body: { code: "USERNAME_TOO_SHORT" },
    });
  });
});

describe("options", () => {
  it("immutableUsername: a set username cannot change; setting the first one is allowed", async () => {
    const t = await usernameInstance("sqlite", { immutableUsername: true });
    const { browser } = await signUpWith(t, "imm@example.com", {});
    expect((await browser.post("/update-user", { username: "first_name" })).status).toBe(200);
    const answer = await browser.post("/update-user", { username: "second_name" });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ code: "USERNAME_IS_IMMUTABLE", message: "Username cannot be updated" });
    expect((await browser.post("/update-user", { username: "FIRST_NAME" })).status).toBe(200);
    await t.close();
  });

  it("min/max length, a validator, a normaliser and validationOrder post-normalization", async () => {
    const t = await usernameInstance("sqlite", {
      minUsernameLength: 5,
      maxUsernameLength: 8,
      usernameValidator: (name) => /^[a-z]+$/.test(name),
      usernameNormalization: (name) => name.trim().toLowerCase(),
      validationOrder: { username: "post-normalization" },
    });
    // "  ABCDE " is valid once normalised to "abcde".
    const { answer } = await signUpWith(t, "norm@example.com", { username: "  ABCDE " });
    expect(answer.json?.user).toMatchObject({ username: "abcde", displayUsername: "  ABCDE " });
    expect((await signInUsername(t, { username: "ABCDE ", password: PASSWORD })).status).toBe(200);
    expect((await signUpWith(t, "n2@example.com", { username: "abcd" })).answer.json).toMatchObject({ code: "USERNAME_TOO_SHORT" });
    expect((await signUpWith(t, "n3@example.com", { username: "abcdefghi" })).answer.json).toMatchObject({ code: "USERNAME_TOO_LONG" });
    await t.close();
  });

  it("usernameNormalization false keeps the case; names differing in case are different users", async () => {
    const t = await usernameInstance("sqlite", { usernameNormalization: false });
    expect((await signUpWith(t, "c1@example.com", { username: "CaseName" })).answer.json?.user).toMatchObject({ username: "CaseName" });
    expect((await signUpWith(t, "c2@example.com", { username: "casename" })).answer.status).toBe(200);
    expect((await signInUsername(t, { username: "CASENAME", password: PASSWORD })).status).toBe(401);
    await t.close();
  });

  it("displayUsernameValidator and displayUsernameNormalization", async () => {
    const t = await usernameInstance("sqlite", {
      displayUsernameValidator: (name) => !name.includes("admin"),
      displayUsernameNormalization: (name) => name.trim(),
    });
    const refused = await signUpWith(t, "d1@example.com", { username: "someone", displayUsername: "the admin" });
    expect(refused.answer.status).toBe(400);
    expect(refused.answer.json).toEqual({ code: "INVALID_DISPLAY_USERNAME", message: "Display username is invalid" });
    const ok = await signUpWith(t, "d2@example.com", { username: "someone", displayUsername: "  Some One  " });
    expect(ok.answer.json?.user).toMatchObject({ displayUsername: "Some One" });
    await t.close();
  });

  it("displayUsername false: no displayUsername column", async () => {
    const t = await usernameInstance("sqlite", { displayUsername: false });
    const { answer } = await signUpWith(t, "nd@example.com", { username: "plain_one" });
    expect(answer.json?.user).toMatchObject({ username: "plain_one" });
    expect(answer.json?.user).not.toHaveProperty("displayUsername");
    expect(Object.keys(t.auth.$context.schema.user!.fields)).not.toContain("displayUsername");
    await t.close();
  });

  it("schema renames the columns", async () => {
    const t = await usernameInstance("sqlite", { schema: { user: { fields: { username: "user_name", displayUsername: "display_name" } } } });
    await signUpWith(t, "col@example.com", { username: "Column" });
    const raw = t.database.driver as unknown as { prepare(sql: string): { all(): unknown[] } };
    expect(raw.prepare(`select user_name, display_name from "user"`).all()).toEqual([{ user_name: "column", display_name: "Column" }]);
    expect((await signInUsername(t, { username: "column", password: PASSWORD })).status).toBe(200);
    await t.close();
  });

  it("requireEmailVerification: 403 EMAIL_NOT_VERIFIED after the password matched, a link mailed with sendOnSignIn", async () => {
    const mails: string[] = [];
    const t = await usernameInstance("sqlite", {}, {
      emailAndPassword: { enabled: true, requireEmailVerification: true },
      emailVerification: { sendOnSignIn: true, sendVerificationEmail: async ({ user }: { user: { email: string } }) => void mails.push(user.email) },
    });
    await signUpWith(t, "unverified@example.com", { username: "unverified" });
    mails.length = 0;
    const wrong = await signInUsername(t, { username: "unverified", password: "wrong password" });
    expect(wrong.status).toBe(401);
    expect(mails).toEqual([]);
    const answer = await signInUsername(t, { username: "unverified", password: PASSWORD });
    expect(answer.status).toBe(403);
    expect(answer.json).toEqual({ code: "EMAIL_NOT_VERIFIED", message: "Email not verified" });
    expect(mails).toEqual(["unverified@example.com"]);
    await t.close();
  });

  it.each([{ minUsernameLength: 10, maxUsernameLength: 5 }, { minUsernameLength: 2.5 }])("%j is a TypeError", (options) => {
    expect(() => username(options)).toThrow(TypeError);
  });
});
