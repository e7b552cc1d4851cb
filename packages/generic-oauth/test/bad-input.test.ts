import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Row } from "@latchkey/core";
import { badInputBattery, Browser, testAuth, VALIDATION_ERROR, type TestIdP } from "@latchkey/test-support";
import { genericOAuth } from "../src/index.ts";
import {
  AUTH,
  BASE,
  genericInstance,
  idpConfig,
  sessionOf,
  startFlow,
  startAliceIdP,
} from "./support/instance.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startAliceIdP();
});
afterAll(() => idp.close());

const MB = "x".repeat(1_000_000);
/** Origin and URL checks on (NODE_ENV=test turns them off by default), as in production. */
const checked = { advanced: { disableOriginCheck: false } };
const counts = (store: Record<string, Row[]>) =>
  Object.fromEntries(["user", "account", "session", "verification"].map((t) => [t, store[t]?.length ?? 0]));
const noRows = { user: 0, account: 0, session: 0, verification: 0 };

/** A raw request to the auth handler with this browser's cookies. */
const raw = (browser: Browser, path: string, init: RequestInit) => browser.send(`${AUTH}${path}`, init);

async function errorOf(res: Response): Promise<{ status: number; code: string; body: string }> {
  const body = await res.text();
  const code = body ? ((JSON.parse(body) as { code?: string }).code ?? "") : "";
  return { status: res.status, code, body };
}

/** The `error` of a redirect and where it points, without the query. */
function redirectError(res: Response): { status: number; target: string; error: string | null } {
  const url = new URL(res.headers.get("location") ?? "", BASE);
  return { status: res.status, target: `${url.origin}${url.pathname}`, error: url.searchParams.get("error") };
}

/** Core's validation answers, before the provider is looked up. */
const validation = {
  "malformed JSON": { status: 400, code: "BAD_REQUEST" },
  "no content type": { status: 415, code: "UNSUPPORTED_MEDIA_TYPE" },
  "JSON array": VALIDATION_ERROR,
  "JSON null": VALIDATION_ERROR,
  "JSON string": VALIDATION_ERROR,
  "JSON number": VALIDATION_ERROR,
  "empty object": VALIDATION_ERROR,
  "wrong type": VALIDATION_ERROR,
};
/** The flow's callbacks answer errors as redirects to the error page. */
const callback = { params: { id: "idp" }, nonJSON: true };

badInputBattery({
  name: "generic-oauth routes: the battery (SQLite)",
  instance: () =>
    testAuth(
      {
        emailAndPassword: { enabled: true },
        plugins: [genericOAuth({ config: [idpConfig(idp)], legacyRoutes: true })],
      },
      { db: "sqlite" },
    ),
  origin: true,
  routes: [
    {
      method: "POST",
      path: "/sign-in/oauth2",
      // An unknown provider: valid to validation, refused before anything is stored.
      validBody: { providerId: "nope", callbackURL: "/", scopes: ["openid"], disableRedirect: true },
      expect: {
        ...validation,
        "missing field: providerId": VALIDATION_ERROR,
        "oversized string: providerId": { status: 400, code: "PROVIDER_CONFIG_NOT_FOUND" },
      },
    },
    {
      method: "POST",
      path: "/sign-in/social",
      validBody: { provider: "nope", callbackURL: "/" },
      expect: {
        ...validation,
        "missing field: provider": VALIDATION_ERROR,
        "oversized string: provider": { status: 404, code: "PROVIDER_NOT_FOUND" },
      },
    },
    { method: "GET", path: "/callback/:id", validQuery: { state: "x", code: "c" }, ...callback },
    { method: "GET", path: "/oauth2/callback/:id", validQuery: { state: "x", code: "c" }, ...callback },
    { method: "POST", path: "/callback/:id", validBody: { state: "x", code: "c" }, ...callback },
    { method: "POST", path: "/oauth2/callback/:id", validBody: { state: "x", code: "c" }, ...callback },
  ],
  // Never the submitted value back.
  check: (answer) => expect(answer.text).not.toContain("xxxxxxxxxx"),
});

describe("POST /sign-in/oauth2 (legacy) and /sign-in/social: malformed requests write nothing", () => {
  const json = { "content-type": "application/json", origin: BASE };
  const cases: Array<{
    name: string;
    body: string;
    headers?: Record<string, string>;
    status: number;
    code: string;
  }> = [
    {
      name: "control characters in providerId",
      body: JSON.stringify({ providerId: "idp\u0000\r\n" }),
      status: 400,
      code: "PROVIDER_CONFIG_NOT_FOUND",
    },
    {
      name: "unicode look-alike providerId",
      body: JSON.stringify({ providerId: "іdp" }),
      status: 400,
      code: "PROVIDER_CONFIG_NOT_FOUND",
    },
    {
      name: "a path-traversal providerId",
      body: JSON.stringify({ providerId: "../idp" }),
      status: 400,
      code: "PROVIDER_CONFIG_NOT_FOUND",
    },
    {
      name: "__proto__ as providerId",
      body: JSON.stringify({ providerId: "__proto__" }),
      status: 400,
      code: "PROVIDER_CONFIG_NOT_FOUND",
    },
  ];
  for (const c of cases) {
    it(`${c.name} → ${c.status} ${c.code}`, async () => {
      const { browser, store } = genericInstance({ config: [idpConfig(idp)], legacyRoutes: true });
      const res = await raw(browser, "/sign-in/oauth2", {
        method: "POST",
        headers: c.headers ?? json,
        body: c.body,
      });
      const err = await errorOf(res);
      expect({ status: err.status, code: err.code }).toEqual({ status: c.status, code: c.code });
      // Never the submitted value back.
      expect(err.body).not.toContain("xxxxxxxxxx");
      expect(err.body).not.toContain("іdp");
      expect(counts(store)).toEqual(noRows);
    });
  }

  it("an unknown or path-like provider on /sign-in/social is 404 PROVIDER_NOT_FOUND, nothing stored", async () => {
    const { browser, store } = genericInstance({ config: [idpConfig(idp)] });
    for (const provider of ["nope", "../idp", "idp/../idp", "idp%00", MB]) {
      const err = await errorOf(await browser.post(`${AUTH}/sign-in/social`, { provider, callbackURL: "/" }));
      expect({ status: err.status, code: err.code }).toEqual({ status: 404, code: "PROVIDER_NOT_FOUND" });
    }
    expect(counts(store)).toEqual(noRows);
  });

  it("extra fields are ignored and cannot overwrite the flow's protocol data", async () => {
    const { browser, store } = genericInstance({ config: [idpConfig(idp)], legacyRoutes: true });
    const url = await startFlow(
      browser,
      {
        providerId: "idp",
        isAdmin: true,
        additionalData: {
          codeVerifier: "attacker",
          callbackURL: "https://evil.test",
          link: { userId: "x", email: "e" },
        },
      },
      "/sign-in/oauth2",
    );
    // Divergence: valibot's record takes an array (zod's, in the reference, does not); its
    // indexes land beside the protocol fields and can shadow none of them.
    await startFlow(browser, { providerId: "idp", additionalData: ["a"] }, "/sign-in/oauth2");
    expect(JSON.parse(String(store.verification![1]!.value))).toMatchObject({
      0: "a",
      callbackURL: "/dashboard",
    });
    const stored = JSON.parse(String(store.verification![0]!.value)) as Record<string, unknown>;
    expect(stored.codeVerifier).not.toBe("attacker");
    expect(stored.callbackURL).toBe("/dashboard");
    expect(stored.link).toBeUndefined();
    expect(new URL(url).searchParams.get("state")).toBe(store.verification![0]!.identifier);
  });
});

describe("redirect targets: every URL field must be trusted (origin checks on)", () => {
  const foreign = [
    "https://evil.test",
    "//evil.test",
    "/\\evil.test",
    "\\\\evil.test",
    "javascript:alert(1)",
    "http://localhost:3000@evil.test/",
    "/%2F%2Fevil.test",
    "/%5Cevil.test",
    "/\tevil",
    // CR/LF inside an otherwise trusted URL: the URL parser drops them, a Location header cannot carry them.
    "http://localhost:3000/next\r\nSet-Cookie: pwned=1",
    "/next\r\nSet-Cookie: pwned=1",
  ];
  const fields: Array<[string, string]> = [
    ["callbackURL", "INVALID_CALLBACK_URL"],
    ["errorCallbackURL", "INVALID_ERROR_CALLBACK_URL"],
    ["newUserCallbackURL", "INVALID_NEW_USER_CALLBACK_URL"],
  ];
  for (const [path, idField] of [
    ["/sign-in/oauth2", "providerId"],
    ["/sign-in/social", "provider"],
  ] as const) {
    it(`${path}: foreign, protocol-relative, backslash, javascript: and CRLF targets are 403, nothing stored`, async () => {
      const { browser, store } = genericInstance({ config: [idpConfig(idp)], legacyRoutes: true }, checked);
      for (const [field, code] of fields) {
        for (const target of foreign) {
          const res = await browser.post(
            `${AUTH}${path}`,
            { [idField]: "idp", [field]: target },
            { origin: BASE },
          );
          const err = await errorOf(res);
          expect({ target, status: err.status, code: err.code }).toEqual({ target, status: 403, code });
          expect(res.headers.get("location")).toBeNull();
        }
      }
      expect(counts(store)).toEqual(noRows);
    });
  }

  it("a foreign callbackURL in the query of /sign-in/oauth2 is refused too", async () => {
    const { browser, store } = genericInstance({ config: [idpConfig(idp)], legacyRoutes: true }, checked);
    const res = await browser.post(
      `${AUTH}/sign-in/oauth2?callbackURL=https%3A%2F%2Fevil.test`,
      { providerId: "idp" },
      { origin: BASE },
    );
    expect((await errorOf(res)).code).toBe("INVALID_CALLBACK_URL");
    const repeated = await browser.post(
      `${AUTH}/sign-in/oauth2?callbackURL=%2Fa&callbackURL=%2Fb`,
      { providerId: "idp" },
      { origin: BASE },
    );
    expect(await errorOf(repeated)).toMatchObject({ status: 400 });
    expect(counts(store)).toEqual(noRows);
  });

  it("a trusted target passes, so the refusals above are about the URL", async () => {
    const { browser, store } = genericInstance({ config: [idpConfig(idp)], legacyRoutes: true }, checked);
    const res = await browser.post(
      `${AUTH}/sign-in/oauth2`,
      { providerId: "idp", callbackURL: "/dashboard" },
      { origin: BASE },
    );
    expect(res.status).toBe(200);
    expect(counts(store).verification).toBe(1);
  });
});

describe("GET|POST /oauth2/callback/:id and /callback/:id: bad redirects from the provider", () => {
  const DEFAULT_ERROR = `${AUTH}/error`;

  for (const prefix of ["/callback", "/oauth2/callback"]) {
    it(`${prefix}: repeated, JSON-valued and missing parameters → invalid_callback_request / state_not_found`, async () => {
      const { browser, store } = genericInstance({ config: [idpConfig(idp)], legacyRoutes: true });
      const get = (q: string) => raw(browser, `${prefix}/idp${q}`, { method: "GET" });
      expect(redirectError(await get("?state=a&state=b&code=c"))).toEqual({
        status: 302,
        target: DEFAULT_ERROR,
        error: "invalid_callback_request",
      });
      expect(redirectError(await get("?code=a&code=b"))).toMatchObject({ error: "invalid_callback_request" });
      expect(redirectError(await get("?code=c"))).toMatchObject({ error: "state_not_found" });
      expect(redirectError(await get(""))).toMatchObject({ error: "state_not_found" });
      const post = (body: string, type: string) =>
        raw(browser, `${prefix}/idp`, { method: "POST", headers: { "content-type": type }, body });
      expect(redirectError(await post('{"state":{"a":1},"code":"c"}', "application/json"))).toMatchObject({
        error: "invalid_callback_request",
      });
      // A form_post answer is re-sent as a GET of its string fields; an array body has none.
      const array = await post("[1,2]", "application/json");
      expect({ status: array.status, location: array.headers.get("location") }).toEqual({
        status: 302,
        location: `${AUTH}${prefix}/idp?`,
      });
      expect((await post("state=a&code=b", "text/plain")).status).toBe(415);
      expect((await errorOf(await post("{nope", "application/json"))).status).toBe(400);
      expect(counts(store)).toEqual(noRows);
    });

    it(`${prefix}: an unknown state, unicode, control characters, 1 MB values → state_mismatch, nothing written`, async () => {
      const { browser, store } = genericInstance({ config: [idpConfig(idp)], legacyRoutes: true });
      for (const state of ["x".repeat(32), "ünïcødé\u202e", "a\u0000b", MB.slice(0, 200_000)]) {
        const q = new URLSearchParams({ state, code: "c" });
        const res = await raw(browser, `${prefix}/idp?${q}`, { method: "GET" });
        expect(redirectError(res)).toEqual({ status: 302, target: DEFAULT_ERROR, error: "state_mismatch" });
        expect(res.headers.get("location")).not.toContain("ünïcødé");
      }
      expect(counts(store)).toEqual(noRows);
    });

    it(`${prefix}: CRLF in error and error_description stays encoded in Location`, async () => {
      const { browser } = genericInstance({ config: [idpConfig(idp)], legacyRoutes: true });
      const url = await startFlow(
        browser,
        { [prefix === "/callback" ? "provider" : "providerId"]: "idp" },
        prefix === "/callback" ? "/sign-in/social" : "/sign-in/oauth2",
      );
      const state = new URL(url).searchParams.get("state")!;
      const q = new URLSearchParams({
        state,
        error: "access_denied\r\nSet-Cookie: a=b",
        error_description: "x\r\ny",
      });
      const res = await raw(browser, `${prefix}/idp?${q}`, { method: "GET" });
      expect(res.status).toBe(302);
      const location = res.headers.get("location")!;
      expect(location).not.toMatch(/[\r\n]/);
      expect(new URL(location, BASE).searchParams.get("error")).toBe("access_denied\r\nSet-Cookie: a=b");
      expect(res.headers.getSetCookie().some((c) => c.startsWith("a="))).toBe(false);
    });
  }

  it("path traversal and unknown ids in :id never reach another route; the state is spent, nothing else", async () => {
    const { browser, store } = genericInstance({ config: [idpConfig(idp)], legacyRoutes: true });
    // `%2e%2e` is `..` to the URL parser: the request is for another, unknown path.
    const dots = await raw(browser, "/callback/%2e%2e?state=x&code=c", { method: "GET" });
    expect({ status: dots.status, location: dots.headers.get("location") }).toEqual({
      status: 404,
      location: null,
    });
    for (const id of ["..%2F..%2Fsign-out", "idp%00", "nope", "%E2%80%AE"]) {
      idp.login("alice-sub");
      const url = await startFlow(browser, { provider: "idp" });
      const state = new URL(url).searchParams.get("state")!;
      const res = await raw(browser, `/callback/${id}?state=${state}&code=c`, { method: "GET" });
      expect({ id, ...redirectError(res) }).toEqual({
        id,
        status: 302,
        target: `${AUTH}/error`,
        error: "oauth_provider_not_found",
      });
    }
    expect(counts(store)).toMatchObject({ user: 0, account: 0, session: 0, verification: 0 });
  });

  it("a used state is refused on replay (single use), and another browser cannot finish a flow (login CSRF)", async () => {
    const { browser, store, auth } = genericInstance({ config: [idpConfig(idp)] });
    idp.login("alice-sub");
    const url = await startFlow(browser, { provider: "idp" });
    const { hops } = await browser.follow(url);
    const callback = hops.find((h) => h.startsWith(`${AUTH}/callback/idp?`))!;
    expect(await sessionOf(browser)).not.toBeNull();
    const before = counts(store);
    const replay = await browser.send(callback);
    expect(redirectError(replay)).toMatchObject({ status: 302, error: "state_mismatch" });

    // A victim's browser given the attacker's fresh callback URL: no state cookie, refused.
    idp.login("alice-sub");
    const attacker = new Browser(BASE, auth.handler);
    const attackerURL = await startFlow(attacker, { provider: "idp" });
    const { location } = await attacker.follow(attackerURL, {
      stopAt: (u) => u.pathname.startsWith("/api/auth/callback/"),
    });
    const victim = new Browser(BASE, auth.handler);
    const res = await victim.send(location);
    expect(redirectError(res)).toMatchObject({ status: 302, error: "state_mismatch" });
    expect(await sessionOf(victim)).toBeNull();
    expect(counts(store)).toEqual({ ...before, verification: 0 });
  });
});
