import { client, rowCounts, testAuth, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { haveIBeenPwned, isPasswordCompromised, type HaveIBeenPwnedOptions } from "../src/index.ts";
import { sha1, startRangeStub, type RangeStub } from "./range-stub.ts";

const BREACHED = "password1234";
const CLEAN = "a perfectly unique passphrase 8c1f";
const compromised = {
  code: "PASSWORD_COMPROMISED",
  message: "The password you entered has been compromised. Please choose a different password.",
};
const unavailable = { code: "PASSWORD_CHECK_UNAVAILABLE", message: "Failed to check password. Please try again later." };

let stub: RangeStub;
beforeAll(async () => {
  stub = await startRangeStub();
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.requests.length = 0;
  stub.breached = new Map([[BREACHED, 42], ["", 7]]);
  stub.override = null;
});

interface Instance extends TestAuth {
  resetMails: Array<{ token: string }>;
}
function instance(options: Partial<HaveIBeenPwnedOptions> = {}, minPasswordLength?: number): () => Instance {
  let t: Instance;
  beforeAll(async () => {
    const resetMails: Array<{ token: string }> = [];
    const made = await testAuth(
      {
        emailAndPassword: {
          enabled: true,
          ...(minPasswordLength === undefined ? {} : { minPasswordLength }),
          sendResetPassword: async ({ token }) => {
            resetMails.push({ token });
          },
        },
        plugins: [haveIBeenPwned({ rangeURL: stub.url, timeout: 300, ...options })],
      },
      { db: "sqlite" },
    );
    t = Object.assign(made, { resetMails });
  });
  afterAll(() => t.close());
  return () => t;
}
const signUp = (email: string, password: string) => ({ email, password, name: "Pwned Test" });

describe("sign-up, change-password and reset-password", () => {
  const get = instance();

  it("a breached password: 400 PASSWORD_COMPROMISED, no row; only the 5-character prefix is sent, with Add-Padding", async () => {
    const t = get();
    const before = await rowCounts(t.auth);
    const answer = await client(t.auth).post("/sign-up/email", signUp("breached@example.com", BREACHED));
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(compromised);
    expect(await rowCounts(t.auth)).toEqual(before);
    expect(stub.requests).toEqual([
      { path: `/range/${sha1(BREACHED).slice(0, 5)}`, addPadding: "true", userAgent: "Latchkey Password Checker" },
    ]);
  });

  it("a clean password signs up (decoys with count 0 do not count)", async () => {
    stub.breached.set(CLEAN, 0);
    const answer = await client(get().auth).post("/sign-up/email", signUp("clean@example.com", CLEAN));
    expect(answer.status).toBe(200);
    expect(stub.requests).toHaveLength(1);
  });

  it("the route's own rules come first: a too-short password never reaches the API", async () => {
    const answer = await client(get().auth).post("/sign-up/email", signUp("short@example.com", "pass"));
    expect(answer.json).toMatchObject({ code: "PASSWORD_TOO_SHORT" });
    expect(stub.requests).toEqual([]);
  });

  it("sign-in is not checked", async () => {
    const answer = await client(get().auth).post("/sign-in/email", { email: "clean@example.com", password: CLEAN });
    expect(answer.status).toBe(200);
    expect(stub.requests).toEqual([]);
  });

  it("change-password to a breached password is refused and the old one still works", async () => {
    const t = get();
    const c = client(t.auth);
    await c.post("/sign-in/email", { email: "clean@example.com", password: CLEAN });
    const answer = await c.post("/change-password", { currentPassword: CLEAN, newPassword: BREACHED });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(compromised);
    expect((await client(t.auth).post("/sign-in/email", { email: "clean@example.com", password: CLEAN })).status).toBe(200);
  });

  it("reset-password to a breached password is refused and the token kept for another try (row 132)", async () => {
    const t = get();
    const c = client(t.auth);
    await c.post("/request-password-reset", { email: "clean@example.com", redirectTo: "/reset" });
    const token = t.resetMails.at(-1)!.token;
    const answer = await c.post("/reset-password", { token, newPassword: BREACHED });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(compromised);
    expect((await client(t.auth).post("/sign-in/email", { email: "clean@example.com", password: BREACHED })).status).toBe(401);
    const retry = await c.post("/reset-password", { token, newPassword: `${CLEAN} again` });
    expect(retry.json).toEqual({ status: true });
    expect((await client(t.auth).post("/sign-in/email", { email: "clean@example.com", password: `${CLEAN} again` })).status).toBe(200);
    expect((await c.post("/reset-password", { token, newPassword: `${CLEAN} thrice` })).status).toBe(400);
  });
});

describe("the range API cannot be asked: 503 PASSWORD_CHECK_UNAVAILABLE, nothing written (row 95)", () => {
  const get = instance();
  it.each([
    ["a 500", { status: 500, body: "oops" }],
    ["a 429", { status: 429, body: "slow down" }],
    ["an invalid count", { body: `${sha1(CLEAN).slice(5)}:lots` }],
    ["an answer after the timeout", { delay: 1000 }],
  ])("%s", async (_name, override) => {
    stub.override = override;
    const t = get();
    const before = await rowCounts(t.auth);
    const answer = await client(t.auth).post("/sign-up/email", signUp(`down${Math.random()}@example.com`, CLEAN));
    expect(answer.status).toBe(503);
    expect(answer.json).toEqual(unavailable);
    expect(await rowCounts(t.auth)).toEqual(before);
  });
});

describe("the empty password is checked too (spec, Plugins table)", () => {
  const get = instance({}, 0);
  it("with minPasswordLength 0, an empty new password on change-password is looked up and refused when breached", async () => {
    const c = client(get().auth);
    expect((await c.post("/sign-up/email", signUp("empty@example.com", CLEAN))).status).toBe(200);
    stub.requests.length = 0;
    const answer = await c.post("/change-password", { currentPassword: CLEAN, newPassword: "" });
    expect(stub.requests.map((r) => r.path)).toEqual([`/range/${sha1("").slice(0, 5)}`]);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(compromised);
  });

  it("isPasswordCompromised(\"\") asks for the empty string's prefix", async () => {
    expect(await isPasswordCompromised("", { rangeURL: stub.url })).toBe(true);
    stub.breached.delete("");
    expect(await isPasswordCompromised("", { rangeURL: stub.url })).toBe(false);
    expect(stub.requests.map((r) => r.path)).toEqual(["/range/DA39A", "/range/DA39A"]);
  });
});

describe("options", () => {
  const custom = instance({ customPasswordCompromisedMessage: "Pick another one", paths: ["/change-password"] });
  const off = instance({ enabled: false });

  it("paths: only the listed ones; customPasswordCompromisedMessage replaces the message", async () => {
    const c = client(custom().auth);
    expect((await c.post("/sign-up/email", signUp("listed@example.com", BREACHED))).status).toBe(200);
    expect(stub.requests).toEqual([]);
    const answer = await c.post("/change-password", { currentPassword: BREACHED, newPassword: BREACHED });
    expect(answer.json).toEqual({ code: "PASSWORD_COMPROMISED", message: "Pick another one" });
  });

  it("enabled: false asks nothing", async () => {
    expect((await client(off().auth).post("/sign-up/email", signUp("off@example.com", BREACHED))).status).toBe(200);
    expect(stub.requests).toEqual([]);
  });

  it("a rangeURL that is not http(s) is a TypeError", () => {
    expect(() => haveIBeenPwned({ rangeURL: "ftp://mirror/range/" })).toThrow(TypeError);
    expect(() => haveIBeenPwned({ rangeURL: "not a url" })).toThrow(TypeError);
  });
});
