import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { memoryAdapter, symmetricEncrypt, type Row } from "@latchkey/core";
import {
  badInputBattery,
  FAULT_MESSAGE,
  faultyAdapter,
  VALIDATION_ERROR,
  type FaultSwitch,
  type TestIdP,
} from "@latchkey/test-support";
import {
  deployments,
  errorRedirect,
  PREVIEW,
  PREVIEW_AUTH,
  PROD_AUTH,
  readProfile,
  runToCompletion,
  SECRET,
  sessionAt,
  startAtPreview,
  startProxyIdP,
  withProfile,
  type Deployments,
} from "./support/deployments.ts";

let idp: TestIdP;
let t: Deployments;
beforeAll(async () => {
  idp = await startProxyIdP();
});
afterAll(() => idp.close());
afterEach(() => t?.close());

const DEFAULT_ERROR = `${PREVIEW_AUTH}/error`;
/** Origin and URL checks on (NODE_ENV=test turns them off by default), as in production. */
const checked = { advanced: { disableOriginCheck: false, disableCSRFCheck: true } };
const rowCounts = (d: Deployments) =>
  Object.fromEntries(["user", "account", "session", "verification"].map((n) => [n, d.rows(n).length]));

async function jsonError(res: Response): Promise<{ status: number; code: string | undefined }> {
  return { status: res.status, code: ((await res.json()) as { code?: string }).code };
}

describe("completion route: malformed queries", () => {
  it("no, repeated or non-string callbackURL / profile → 400 VALIDATION_ERROR, the flow is not spent", async () => {
    t = await deployments(idp);
    const { completion } = await runToCompletion(idp, t.browser, "alice-sub");
    const profile = encodeURIComponent(completion.searchParams.get("profile")!);
    const base = `${PREVIEW_AUTH}/callback/idp/oauth-proxy`;
    for (const query of [
      `?profile=${profile}`,
      `?callbackURL=%2Fa&callbackURL=%2Fb&profile=${profile}`,
      `?callbackURL=%2F&profile=${profile}&profile=${profile}`,
    ]) {
      expect({ query, ...(await jsonError(await t.browser.send(base + query))) }).toEqual({
        query,
        status: 400,
        code: "VALIDATION_ERROR",
      });
    }
    const before = rowCounts(t);
    // The genuine URL still completes: none of the above consumed the state.
    expect((await t.browser.send(completion.href)).headers.get("location")).toBe("/dashboard");
    expect(rowCounts(t)).toMatchObject({
      session: before.session! + 1,
      verification: before.verification! - 1,
    });
  });

  it("a 1 MB, unicode or control-character profile is invalid_profile at the default error URL, nothing written", async () => {
    t = await deployments(idp);
    const { completion } = await runToCompletion(idp, t.browser, "alice-sub", { errorCallbackURL: "/oops" });
    const before = rowCounts(t);
    for (const profile of ["a".repeat(1_000_000), "ünïcødé\u202e", "00\r\n11", "%00", "0".repeat(47)]) {
      const url = new URL(completion);
      url.searchParams.set("profile", profile);
      const res = await t.browser.send(url.href);
      expect(errorRedirect(res)).toEqual({ status: 302, target: DEFAULT_ERROR, error: "invalid_profile" });
      expect(res.headers.get("location")).not.toContain("ünïcødé");
    }
    expect(rowCounts(t)).toEqual(before);
  });

  it("path traversal or another provider in :id never completes the flow", async () => {
    t = await deployments(idp);
    const { completion } = await runToCompletion(idp, t.browser, "alice-sub", { errorCallbackURL: "/oops" });
    const before = rowCounts(t);
    for (const id of ["..%2Fidp", "idp%00", "IDP", "%E2%80%AEpdi"]) {
      const url = `${PREVIEW_AUTH}/callback/${id}/oauth-proxy${completion.search}`;
      expect({ id, ...errorRedirect(await t.browser.send(url)) }).toEqual({
        id,
        status: 302,
        target: `${PREVIEW}/oops`,
        error: "provider_mismatch",
      });
    }
    // `..` segments are resolved by the URL parser: another path, which does not exist.
    const dots = await t.browser.send(`${PREVIEW_AUTH}/callback/idp/%2e%2e/oauth-proxy${completion.search}`);
    // `..` is resolved by the URL parser: `/callback/oauth-proxy`, the ordinary callback of an
    // unknown provider, which finds no state of its own in this query.
    expect(errorRedirect(dots)).toEqual({ status: 302, target: DEFAULT_ERROR, error: "state_not_found" });
    expect(rowCounts(t)).toEqual(before);
  });

  it("tampered, re-encrypted-elsewhere, expired and replayed payloads are refused, one session in all", async () => {
    t = await deployments(idp);
    const { completion } = await runToCompletion(idp, t.browser, "alice-sub", { errorCallbackURL: "/oops" });
    const payload = await readProfile(completion);
    const cases: Array<[URL, string, string]> = [
      [
        await withProfile(completion, payload, "another-secret-0123456789-0123456789-abcd"),
        DEFAULT_ERROR,
        "invalid_profile",
      ],
      [
        await withProfile(completion, { ...payload, timestamp: Date.now() - 3_600_000 }),
        `${PREVIEW}/oops`,
        "payload_expired",
      ],
      [
        // NaN serialises as null: no number, no payload.
        await withProfile(completion, { ...payload, timestamp: Number.NaN }),
        DEFAULT_ERROR,
        "invalid_payload",
      ],
      [await withProfile(completion, { ...payload, timestamp: 1e300 }), `${PREVIEW}/oops`, "payload_expired"],
      [
        await withProfile(completion, {
          ...payload,
          account: { ...(payload.account as object), providerId: "other" },
        }),
        `${PREVIEW}/oops`,
        "provider_mismatch",
      ],
    ];
    for (const [url, target, error] of cases) {
      expect(errorRedirect(await t.browser.send(url.href))).toEqual({ status: 302, target, error });
    }
    expect(t.rows("session")).toHaveLength(0);
    expect((await t.browser.send(completion.href)).headers.get("location")).toBe("/dashboard");
    expect(errorRedirect(await t.browser.send(completion.href))).toEqual({
      status: 302,
      target: `${PREVIEW}/oops`,
      error: "state_mismatch",
    });
    expect(t.rows("session")).toHaveLength(1);
  });
});

describe("redirect targets (origin checks on)", () => {
  const foreign = [
    "https://evil.test",
    "//evil.test",
    "/\\evil.test",
    "javascript:alert(1)",
    "http://preview.test@evil.test/",
    "/%2F%2Fevil.test",
    // CR/LF in an otherwise trusted URL: refused before it can reach a Location header.
    "http://preview.test/next\r\nSet-Cookie: pwned=1",
    "/next\r\nSet-Cookie: pwned=1",
  ];

  it("the completion route refuses each with 403 INVALID_CALLBACK_URL before reading the profile", async () => {
    t = await deployments(idp, { shared: checked });
    for (const callbackURL of foreign) {
      const q = new URLSearchParams({ callbackURL, profile: "00" });
      for (const path of ["/callback/idp/oauth-proxy", "/oauth-proxy-callback"]) {
        const res = await t.browser.send(`${PREVIEW_AUTH}${path}?${q}`);
        expect({ callbackURL, path, ...(await jsonError(res)) }).toEqual({
          callbackURL,
          path,
          status: 403,
          code: "INVALID_CALLBACK_URL",
        });
        expect(res.headers.get("location")).toBeNull();
      }
    }
  });

  it("the preview's sign-in refuses each as callbackURL, errorCallbackURL or newUserCallbackURL; nothing stored", async () => {
    t = await deployments(idp, { shared: checked });
    const fields: Array<[string, string]> = [
      ["callbackURL", "INVALID_CALLBACK_URL"],
      ["errorCallbackURL", "INVALID_ERROR_CALLBACK_URL"],
      ["newUserCallbackURL", "INVALID_NEW_USER_CALLBACK_URL"],
    ];
    for (const [field, code] of fields) {
      for (const target of foreign) {
        const res = await t.browser.post(`${PREVIEW_AUTH}/sign-in/social`, {
          provider: "idp",
          [field]: target,
        });
        expect({ target, ...(await jsonError(res)) }).toEqual({ target, status: 403, code });
      }
    }
    expect(rowCounts(t)).toEqual({ user: 0, account: 0, session: 0, verification: 0 });
  });

  it("a forged Host cannot choose where production sends the profile", async () => {
    t = await deployments(idp, { shared: checked });
    const res = await t.preview.handler(
      new Request("http://evil.test/api/auth/sign-in/social", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-host": "evil.test" },
        body: JSON.stringify({ provider: "idp", callbackURL: "/dashboard" }),
      }),
    );
    expect(res.status).toBe(200);
    const [row] = t.rows<{ value: string }>("verification");
    expect(new URL(String(JSON.parse(row!.value).callbackURL)).origin).toBe(PREVIEW);
  });
});

describe("sign-in hooks: malformed bodies are validation's, nothing stored", () => {
  it("path-like providers are 404 PROVIDER_NOT_FOUND", async () => {
    t = await deployments(idp);
    for (const provider of ["../idp", "idp\r\nx"]) {
      const res = await t.browser.post(`${PREVIEW_AUTH}/sign-in/social`, { provider });
      expect(await jsonError(res)).toEqual({ status: 404, code: "PROVIDER_NOT_FOUND" });
    }
    expect(rowCounts(t)).toEqual({ user: 0, account: 0, session: 0, verification: 0 });
  });
});

describe("production callback: state packages that are not what they seem", () => {
  /** The production callback URL of a flow started at the preview (the IdP's redirect, not yet followed). */
  async function productionCallback(): Promise<URL> {
    idp.login("alice-sub");
    const url = await startAtPreview(t.browser, { errorCallbackURL: "/oops" });
    const { location } = await t.browser.follow(url, {
      stopAt: (u) => u.href.startsWith(`${PROD_AUTH}/callback/`),
    });
    return new URL(location);
  }

  it("a package sealed with another secret, a hand-made one, or garbage: core's callback refuses it", async () => {
    t = await deployments(idp);
    const callback = await productionCallback();
    const other = "another-secret-0123456789-0123456789-abcd";
    const forged = [
      await symmetricEncrypt({
        key: other,
        data: JSON.stringify({
          state: "s",
          stateCookie: await symmetricEncrypt({ key: other, data: "{}" }),
          isOAuthProxy: true,
        }),
      }),
      // Right secret, but the flow data is not a flow.
      await symmetricEncrypt({
        key: SECRET,
        data: JSON.stringify({
          state: "s",
          stateCookie: await symmetricEncrypt({ key: SECRET, data: '{"callbackURL":5}' }),
          isOAuthProxy: true,
        }),
      }),
      await symmetricEncrypt({
        key: SECRET,
        data: JSON.stringify({ state: "s", stateCookie: "zz", isOAuthProxy: "yes" }),
      }),
      "f".repeat(500_000),
      "ünïcødé",
    ];
    for (const state of forged) {
      const url = new URL(callback);
      url.searchParams.set("state", state);
      const res = await t.browser.send(url.href);
      expect(errorRedirect(res)).toEqual({
        status: 302,
        target: `${PROD_AUTH}/error`,
        error: "state_mismatch",
      });
    }
    expect(rowCounts(t)).toMatchObject({ user: 0, account: 0, session: 0 });
  });

  it("a replayed production callback cannot mint a second profile: the code is spent (invalid_code)", async () => {
    t = await deployments(idp);
    const callback = await productionCallback();
    const first = await t.browser.send(callback.href);
    expect(new URL(first.headers.get("location")!).searchParams.has("profile")).toBe(true);
    const again = await t.browser.send(callback.href);
    expect(errorRedirect(again)).toEqual({ status: 302, target: `${PREVIEW}/oops`, error: "invalid_code" });
  });

  it("CRLF in the provider's error stays encoded in Location", async () => {
    t = await deployments(idp);
    const callback = await productionCallback();
    const url = new URL(callback);
    url.searchParams.delete("code");
    url.searchParams.set("error", "denied\r\nSet-Cookie: a=b");
    const res = await t.browser.send(url.href);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).not.toMatch(/[\r\n]/);
    expect(new URL(res.headers.get("location")!, PREVIEW).searchParams.get("error")).toBe(
      "denied\r\nSet-Cookie: a=b",
    );
    expect(res.headers.getSetCookie().some((c) => c.startsWith("a="))).toBe(false);
  });
});

describe("a failing database on the preview", () => {
  async function faultyPreview(faults: FaultSwitch, logged: string[]) {
    const store: Record<string, Row[]> = {};
    t = await deployments(idp, {
      preview: {
        database: faultyAdapter(memoryAdapter(store), faults),
        logger: {
          level: "debug",
          log: (_l, m, ...args) => void logged.push([m, ...args.map(String)].join(" ")),
        },
      },
    });
    return store;
  }

  it("storing the flow fails: a bare 500 revealing nothing, nothing stored", async () => {
    const faults: FaultSwitch = { fault: { method: "create", model: "verification" }, failed: [] };
    const store = await faultyPreview(faults, []);
    const res = await t.browser.post(`${PREVIEW_AUTH}/sign-in/social`, { provider: "idp", callbackURL: "/" });
    expect(res.status).toBe(500);
    expect(await res.text()).toBe("");
    expect(store.verification ?? []).toHaveLength(0);
  });

  it("completion: state read, user and session writes failing are error redirects, never a 500 or a session", async () => {
    const faults: FaultSwitch = { fault: null, failed: [] };
    const logged: string[] = [];
    const store = await faultyPreview(faults, logged);
    for (const [fault, error] of [
      // The completion route reports any state failure as the proxy's state_mismatch.
      [{ method: "consumeOne", model: "verification" }, "state_mismatch"],
      [{ method: "create", model: "user" }, "unable_to_create_user"],
      [{ method: "create", model: "session" }, "unable_to_create_session"],
    ] as const) {
      const { completion } = await runToCompletion(idp, t.browser, "alice-sub", {
        errorCallbackURL: "/oops",
      });
      faults.fault = fault;
      const res = await t.browser.send(completion.href);
      faults.fault = null;
      expect({ fault: fault.method, ...errorRedirect(res) }).toEqual({
        fault: fault.method,
        status: 302,
        target: `${PREVIEW}/oops`,
        error,
      });
      expect(res.headers.get("location")).not.toContain("secret-db-detail");
      expect(await sessionAt(t.browser, PREVIEW)).toBeNull();
    }
    expect(store.session ?? []).toHaveLength(0);
    const log = logged.join("\n");
    expect(log).toContain(FAULT_MESSAGE);
    // The encrypted profile and the provider's tokens are never logged.
    for (const account of store.account ?? [])
      for (const token of [account.accessToken, account.idToken])
        if (token) expect(log).not.toContain(String(token));
  });
});

/** The completion routes: errors in the flow are redirects; malformed queries are validation's. */
const completion = {
  validQuery: { callbackURL: "/", profile: "00" },
  nonJSON: true,
  expect: { "repeated key: callbackURL": VALIDATION_ERROR, "repeated key: profile": VALIDATION_ERROR },
};

badInputBattery({
  name: "the preview's routes: the battery (SQLite shared with production)",
  instance: async () => {
    const d = await deployments(idp);
    return { auth: d.preview, close: () => d.close() };
  },
  routes: [
    {
      method: "POST",
      path: "/sign-in/social",
      // An unknown provider: the proxy's hooks run, nothing is stored.
      validBody: { provider: "nope", callbackURL: "/" },
      expect: {
        "JSON array": VALIDATION_ERROR,
        "wrong type": VALIDATION_ERROR,
        "oversized string: provider": { status: 404, code: "PROVIDER_NOT_FOUND" },
      },
    },
    { method: "GET", path: "/callback/:id/oauth-proxy", params: { id: "idp" }, ...completion },
    { method: "GET", path: "/oauth-proxy-callback", ...completion },
  ],
});
