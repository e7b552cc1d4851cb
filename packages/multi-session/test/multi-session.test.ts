import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth, memoryAdapter } from "@latchkey/core";
import { TEST_BASE_URL, TEST_SECRET, type TestAuth } from "@latchkey/test-support";
import { multiSession } from "../src/index.ts";
import {
  activeEmail,
  client,
  listedEmails,
  multiCookies,
  multiInstance,
  multiName,
  SESSION_COOKIE,
  signIn,
  signUp,
} from "./instance.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await multiInstance("sqlite");
});
afterAll(() => t.close());

const sessionExists = async (token: string) => !!(await t.auth.$context.internalAdapter.findSession(token));

describe("several users in one browser (SQLite)", () => {
  it("a sign-in adds a multi cookie with the session cookie's attributes", async () => {
    const browser = client(t.auth);
    const answer = await browser.post<{ token: string }>("/sign-up/email", {
      email: "attrs@example.com",
      password: "correct horse battery",
      name: "Attrs",
    });
    const token = answer.json!.token;
    const lines = answer.headers.getSetCookie();
    const multi = lines.find((l) => l.startsWith(`${multiName(token)}=`));
    const session = lines.find((l) => l.startsWith(`${SESSION_COOKIE}=`));
    expect(multi).toBeDefined();
    const attrs = (line: string) => line.split(";").slice(1).map((a) => a.trim()).filter((a) => !a.startsWith("Max-Age"));
    expect(attrs(multi!)).toEqual(attrs(session!));
    // The signed value is the token itself (mixed case), the name its lower-cased form.
    expect(decodeURIComponent(multi!.split(";")[0]!.split("=")[1]!).split(".")[0]).toBe(token);
  });

  it("lists, switches between and revokes two and more users", async () => {
    const browser = client(t.auth);
    const a = await signUp(browser, "a1");
    const b = await signUp(browser, "b1");
    const c = await signUp(browser, "c1");
    expect(multiCookies(browser)).toEqual([a, b, c].map(multiName).sort());
    expect(await listedEmails(browser)).toEqual(["usera1@example.com", "userb1@example.com", "userc1@example.com"]);
    expect(await activeEmail(browser)).toBe("userc1@example.com");

    const switched = await browser.post<{ user: { email: string }; session: { token: string } }>(
      "/multi-session/set-active",
      { sessionToken: a },
    );
    expect(switched.status).toBe(200);
    expect(switched.json).toMatchObject({ user: { email: "usera1@example.com" }, session: { token: a } });
    expect(await activeEmail(browser)).toBe("usera1@example.com");
    // Switching does not add a second cookie for the same session.
    expect(multiCookies(browser)).toHaveLength(3);

    // Revoking a session that is not the active one leaves the active one alone.
    const revoked = await browser.post("/multi-session/revoke", { sessionToken: b });
    expect(revoked.status).toBe(200);
    expect(revoked.json).toEqual({ status: true });
    expect(await sessionExists(b)).toBe(false);
    expect(multiCookies(browser)).toEqual([a, c].map(multiName).sort());
    expect(await activeEmail(browser)).toBe("usera1@example.com");

    // Revoking the active one hands over to the other session the browser holds.
    expect((await browser.post("/multi-session/revoke", { sessionToken: a })).json).toEqual({ status: true });
    expect(await sessionExists(a)).toBe(false);
    expect(await activeEmail(browser)).toBe("userc1@example.com");

    // Revoking the last one clears the session cookie.
    expect((await browser.post("/multi-session/revoke", { sessionToken: c })).json).toEqual({ status: true });
    expect(await activeEmail(browser)).toBeNull();
    expect(browser.jar.values.has(SESSION_COOKIE)).toBe(false);
    expect(multiCookies(browser)).toEqual([]);
  });

  it("a second sign-in of the same user replaces and deletes the older session", async () => {
    const browser = client(t.auth);
    const first = await signUp(browser, "same");
    const other = await signUp(browser, "other");
    const second = await signIn(browser, "same");
    expect(await sessionExists(first)).toBe(false);
    expect(await sessionExists(other)).toBe(true);
    expect(multiCookies(browser)).toEqual([other, second].map(multiName).sort());
    expect(await listedEmails(browser)).toEqual(["userother@example.com", "usersame@example.com"]);
  });

  it("maximumSessions: the fifth session is remembered, the sixth is not", async () => {
    const browser = client(t.auth);
    const tokens: string[] = [];
    for (let i = 0; i < 5; i++) tokens.push(await signUp(browser, `max${i}`));
    expect(multiCookies(browser)).toHaveLength(5);
    const sixth = await signUp(browser, "max5");
    // Signed in, but not remembered: neither listed nor switchable.
    expect(await activeEmail(browser)).toBe("usermax5@example.com");
    expect(multiCookies(browser)).toHaveLength(5);
    expect(browser.jar.values.has(multiName(sixth))).toBe(false);
    expect(await listedEmails(browser)).toHaveLength(5);
    const refused = await browser.post("/multi-session/set-active", { sessionToken: sixth });
    expect(refused.status).toBe(401);
    // Revoking one makes room for the next sign-in.
    await browser.post("/multi-session/set-active", { sessionToken: tokens[0] });
    await browser.post("/multi-session/revoke", { sessionToken: tokens[1] });
    const seventh = await signUp(browser, "max6");
    expect(browser.jar.values.has(multiName(seventh))).toBe(true);
    expect(multiCookies(browser)).toHaveLength(5);
  });

  it("a limit of 1 keeps one remembered session", async () => {
    const one = await multiInstance("sqlite", { maximumSessions: 1 });
    try {
      const browser = client(one.auth);
      const a = await signUp(browser, "one-a");
      const b = await signUp(browser, "one-b");
      expect(multiCookies(browser)).toEqual([multiName(a)]);
      expect(browser.jar.values.has(multiName(b))).toBe(false);
    } finally {
      await one.close();
    }
  });

  it("expired sessions are skipped by the list and refused by set-active, which expires their cookie", async () => {
    const browser = client(t.auth);
    const a = await signUp(browser, "exp-a");
    await signUp(browser, "exp-b");
    await t.auth.$context.internalAdapter.updateSession(a, { expiresAt: new Date(Date.now() - 1000) });
    expect(await listedEmails(browser)).toEqual(["userexp-b@example.com"]);
    const refused = await browser.post("/multi-session/set-active", { sessionToken: a });
    expect(refused.status).toBe(401);
    expect(refused.json).toEqual({ code: "INVALID_SESSION_TOKEN", message: "Invalid session token" });
    expect(refused.headers.getSetCookie().some((l) => l.startsWith(`${multiName(a)}=;`) && /Max-Age=0/.test(l))).toBe(true);
    expect(browser.jar.values.has(multiName(a))).toBe(false);
  });

  it("sign-out expires every multi cookie and deletes every session of the browser", async () => {
    const browser = client(t.auth);
    const tokens = [await signUp(browser, "out-a"), await signUp(browser, "out-b"), await signUp(browser, "out-c")];
    const out = await browser.post("/sign-out");
    expect(out.status).toBe(200);
    for (const token of tokens) expect(await sessionExists(token)).toBe(false);
    expect(multiCookies(browser)).toEqual([]);
    expect(await activeEmail(browser)).toBeNull();
    expect(await listedEmails(browser)).toEqual([]);
  });

  it("answers errors as the reference does", async () => {
    const browser = client(t.auth);
    expect((await browser.get("/multi-session/list-device-sessions")).json).toEqual([]);
    const noCookie = await browser.post("/multi-session/set-active", { sessionToken: "nope" });
    expect(noCookie.status).toBe(401);
    expect(noCookie.json).toEqual({ code: "INVALID_SESSION_TOKEN", message: "Invalid session token" });
    const noSession = await browser.post("/multi-session/revoke", { sessionToken: "nope" });
    expect(noSession.status).toBe(401);
    await signUp(browser, "err");
    const unknown = await browser.post("/multi-session/revoke", { sessionToken: "nope" });
    expect(unknown.status).toBe(401);
    expect(unknown.json).toEqual({ code: "INVALID_SESSION_TOKEN", message: "Invalid session token" });
  });
});

describe("auth.api", () => {
  it("the three endpoints are typed and callable from server code with the browser's cookies", async () => {
    // A typed instance: `testAuth` answers the untyped `Auth`.
    const auth = createAuth({
      database: memoryAdapter(),
      secret: TEST_SECRET,
      baseURL: TEST_BASE_URL,
      emailAndPassword: { enabled: true },
      logger: { disabled: true },
      plugins: [multiSession()],
    });
    const browser = client(auth);
    const a = await signUp(browser, "api-a");
    await signUp(browser, "api-b");
    const headers = new Headers({ cookie: browser.jar.header()! });
    const listed = await auth.api.listDeviceSessions({ headers });
    expect(listed.map((e) => e.user.email).sort()).toEqual(["userapi-a@example.com", "userapi-b@example.com"]);
    const switched = await auth.api.setActiveSession({ headers, body: { sessionToken: a } });
    expect(switched.session.token).toBe(a);
    expect(await auth.api.revokeDeviceSession({ headers, body: { sessionToken: a } })).toEqual({ status: true });
    expect(await auth.$context.internalAdapter.findSession(a)).toBeNull();
  });
});

describe("options", () => {
  it("maximumSessions defaults to 5; a value that is not a positive integer is a TypeError", () => {
    expect(multiSession().options.maximumSessions).toBe(5);
    expect(multiSession({ maximumSessions: 2 }).options.maximumSessions).toBe(2);
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => multiSession({ maximumSessions: bad })).toThrow(TypeError);
    }
  });
});
