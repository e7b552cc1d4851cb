import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth, memoryAdapter, type Row } from "@latchkey/core";
import {
  badInputBattery,
  Browser,
  FAULT_MESSAGE,
  faultyAdapter,
  testAuth,
  VALIDATION_ERROR,
  type FaultSwitch,
  type TestIdP,
} from "@latchkey/test-support";
import { genericOAuth } from "../src/index.ts";
import {
  AUTH,
  BASE,
  genericInstance,
  idpConfig,
  SECRET,
  sessionOf,
  startFlow,
  startAliceIdP,
} from "./support/instance.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startAliceIdP();
});
afterAll(() => idp.close());

/** Origin and URL checks on (NODE_ENV=test turns them off by default), as in production. */
const checked = { advanced: { disableOriginCheck: false } };
const counts = (store: Record<string, Row[]>) =>
  Object.fromEntries(["user", "account", "session", "verification"].map((t) => [t, store[t]?.length ?? 0]));

const noRows = { user: 0, account: 0, session: 0, verification: 0 };

async function errorOf(res: Response): Promise<{ status: number; code: string }> {
  const body = await res.text();
  return { status: res.status, code: body ? ((JSON.parse(body) as { code?: string }).code ?? "") : "" };
}

describe("a failing database", () => {
  function faultyInstance(faults: FaultSwitch, logged: string[]) {
    const store: Record<string, Row[]> = {};
    const auth = createAuth({
      database: faultyAdapter(memoryAdapter(store), faults),
      secret: SECRET,
      baseURL: BASE,
      logger: {
        level: "debug",
        log: (_l, message, ...args) => void logged.push([message, ...args.map(String)].join(" ")),
      },
      plugins: [genericOAuth({ config: [idpConfig(idp)], legacyRoutes: true })],
    });
    return { auth, store, browser: new Browser(BASE, auth.handler) };
  }

  it("sign-in start: the state cannot be stored → a bare 500 that reveals nothing", async () => {
    const faults: FaultSwitch = { fault: { method: "create", model: "verification" }, failed: [] };
    const logged: string[] = [];
    const { browser, store } = faultyInstance(faults, logged);
    const res = await browser.post(`${AUTH}/sign-in/oauth2`, { providerId: "idp", callbackURL: "/" });
    expect(res.status).toBe(500);
    expect(await res.text()).toBe("");
    expect(res.headers.get("location")).toBeNull();
    expect(faults.failed).toEqual(["create:verification"]);
    expect(counts(store)).toEqual(noRows);
  });

  it("callback: reading the state fails → internal_server_error redirect; creating the user fails → an error redirect; no session", async () => {
    const faults: FaultSwitch = { fault: null, failed: [] };
    const logged: string[] = [];
    const { browser, store } = faultyInstance(faults, logged);
    for (const [fault, error] of [
      [{ method: "consumeOne", model: "verification" }, "internal_server_error"],
      [{ method: "create", model: "user" }, "unable_to_create_user"],
      [{ method: "create", model: "session" }, "unable_to_create_session"],
    ] as const) {
      idp.login("alice-sub");
      const url = await startFlow(browser, { provider: "idp" });
      faults.fault = fault;
      const { location, response } = await browser.follow(url, {
        stopAt: (u) => u.pathname === "/api/auth/error",
      });
      faults.fault = null;
      expect({
        fault: fault.method,
        status: response.status,
        error: new URL(location).searchParams.get("error"),
      }).toEqual({
        fault: fault.method,
        status: 302,
        error,
      });
      expect(location).not.toContain("secret-db-detail");
      expect(await sessionOf(browser)).toBeNull();
      expect(store.session ?? []).toHaveLength(0);
    }
    // The cause is logged for operators, and no token or secret is.
    expect(logged.join("\n")).toContain(FAULT_MESSAGE);
    for (const account of store.account ?? []) {
      for (const token of [account.accessToken, account.idToken])
        if (token) expect(logged.join("\n")).not.toContain(String(token));
    }
  });
});

describe("POST /sign-out with provider logout: bad input", () => {
  async function signedIn(options: Parameters<typeof genericInstance>[1] = {}) {
    const instance = genericInstance({ config: [idpConfig(idp)] }, options);
    idp.login("alice-sub");
    const url = await startFlow(instance.browser, { provider: "idp" });
    await instance.browser.follow(url);
    expect(await sessionOf(instance.browser)).not.toBeNull();
    return instance;
  }

  it("a foreign, protocol-relative, backslash, javascript: or CRLF callbackURL is 403 and the session stays", async () => {
    const { browser, store } = await signedIn(checked);
    const before = counts(store);
    for (const callbackURL of [
      "https://evil.test/bye",
      "//evil.test",
      "/\\evil.test",
      "javascript:alert(1)",
      "/bye\r\nX: y",
    ]) {
      const res = await browser.post(`${AUTH}/sign-out`, { callbackURL }, { origin: BASE });
      const err = await errorOf(res);
      expect({ callbackURL, status: err.status, code: err.code }).toEqual({
        callbackURL,
        status: 403,
        code: "INVALID_CALLBACK_URL",
      });
      expect(res.headers.get("location")).toBeNull();
    }
    expect(counts(store)).toEqual(before);
    expect(await sessionOf(browser)).not.toBeNull();
  });

  it("CRLF, unicode and 1 MB in state stay encoded in the logout URL", async () => {
    const { browser } = await signedIn();
    const state = `s\r\nSet-Cookie: a=b\u202e${"y".repeat(500_000)}`;
    const res = await browser.post(`${AUTH}/sign-out`, { callbackURL: "/bye", state });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { url: string };
    const location = res.headers.get("location")!;
    expect(location).toBe(body.url);
    expect(location).not.toMatch(/[\r\n]/);
    expect(new URL(location).searchParams.get("state")).toBe(state);
    expect(new URL(location).searchParams.get("post_logout_redirect_uri")).toBe(`${BASE}/bye`);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("a="))).toBe(false);
  });

  it("a database that fails to delete the session still clears the cookies and answers 200", async () => {
    const faults: FaultSwitch = { fault: null, failed: [] };
    const store: Record<string, Row[]> = {};
    const auth = createAuth({
      database: faultyAdapter(memoryAdapter(store), faults),
      secret: SECRET,
      baseURL: BASE,
      logger: { disabled: true },
      plugins: [genericOAuth({ config: [idpConfig(idp)] })],
    });
    const browser = new Browser(BASE, auth.handler);
    idp.login("alice-sub");
    await browser.follow(await startFlow(browser, { provider: "idp" }));
    const before = counts(store);
    faults.fault = { method: "delete", model: "session" };
    const res = await browser.post(`${AUTH}/sign-out`, {});
    faults.fault = null;
    expect(faults.failed).toEqual(["delete:session"]);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
    expect(counts(store)).toEqual(before);
    expect(browser.appCookies().has("better-auth.session_token")).toBe(false);
  });
});

/** A valid sign-out deletes the session: the battery skips the bodies that are one. */
const A_VALID_SIGN_OUT = "a valid sign-out, which deletes the session";

badInputBattery({
  name: "POST /sign-out with provider logout: malformed bodies sign nobody out (SQLite)",
  instance: async () => {
    const t = await testAuth({ plugins: [genericOAuth({ config: [idpConfig(idp)] })] }, { db: "sqlite" });
    const browser = new Browser(BASE, t.auth.handler);
    idp.login("alice-sub");
    await browser.follow(await startFlow(browser, { provider: "idp" }));
    expect(await sessionOf(browser)).not.toBeNull();
    return { ...t, headers: { cookie: browser.appCookieHeader() } };
  },
  routes: [
    {
      method: "POST",
      path: "/sign-out",
      validBody: { callbackURL: "/bye", state: "s", disableRedirect: true },
      expect: {
        "JSON array": VALIDATION_ERROR,
        "JSON string": VALIDATION_ERROR,
        "JSON number": VALIDATION_ERROR,
        "wrong type": VALIDATION_ERROR,
        "JSON null": { skip: A_VALID_SIGN_OUT },
        "empty object": { skip: A_VALID_SIGN_OUT },
        "missing field": { skip: A_VALID_SIGN_OUT },
        "extra fields": { skip: A_VALID_SIGN_OUT },
        "prototype keys": { skip: A_VALID_SIGN_OUT },
        "oversized string": { skip: A_VALID_SIGN_OUT },
        // Today 415; once core reads no body as an empty one, it is a valid sign-out.
        "no body": { writes: true },
      },
    },
  ],
});
