import { createAuth, memoryAdapter, type Row } from "@latchkey/core";
import {
  badInputBattery,
  CLIENT_ID,
  FAULT_MESSAGE,
  faultyAdapter,
  startIdP,
  testAuth,
  VALIDATION_ERROR,
  type FaultSwitch,
  type TestIdP,
} from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oneTap } from "../src/index.ts";
import { BASE, oneTapInstance, SECRET } from "./instance.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startIdP(["http://localhost:3000/api/auth/callback/google"]);
});
afterAll(() => idp.close());

const ada = { sub: "google-sub-1", email: "ada@example.com", email_verified: true, name: "Ada" };
const MB = "x".repeat(1_000_000);
/** Origin and URL checks on (NODE_ENV=test turns them off by default), as in production. */
const checked = { advanced: { disableOriginCheck: false } };

async function rowCounts(t: ReturnType<typeof oneTapInstance>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const model of ["user", "account", "session"]) out[model] = await t.db.count({ model });
  return out;
}
const none = { user: 0, account: 0, session: 0 };

async function answer(res: Response): Promise<{ status: number; code?: string; message?: string }> {
  const text = await res.text();
  const body = text ? (JSON.parse(text) as { code?: string; message?: string }) : {};
  return { status: res.status, ...(body.code ? { code: body.code } : {}), message: body.message };
}

/** The reference's answer to a body that validates but holds no usable token: a message, no code. */
const INVALID_TOKEN = { status: 400, code: null, message: "invalid id token" } as const;

badInputBattery({
  name: "POST /one-tap/callback: the battery (SQLite)",
  instance: () =>
    testAuth(
      {
        socialProviders: { google: { clientId: CLIENT_ID, clientSecret: "unused" } },
        plugins: [oneTap({ jwksURL: `${idp.issuer}/jwks`, issuer: idp.issuer })],
      },
      { db: "sqlite" },
    ),
  routes: [
    {
      method: "POST",
      path: "/one-tap/callback",
      // Valid to validation, refused as a token: nothing is written.
      validBody: { idToken: "x", callbackURL: "/" },
      expect: {
        "malformed JSON": { status: 400, code: "BAD_REQUEST", message: "Invalid JSON in request body" },
        "no content type": { status: 415, code: "UNSUPPORTED_MEDIA_TYPE" },
        "JSON array": VALIDATION_ERROR,
        "JSON string": VALIDATION_ERROR,
        "empty object": VALIDATION_ERROR,
        "missing field: idToken": VALIDATION_ERROR,
        "wrong type": VALIDATION_ERROR,
        "missing field: callbackURL": INVALID_TOKEN,
        "extra fields": INVALID_TOKEN,
        "prototype keys": INVALID_TOKEN,
        "oversized string": INVALID_TOKEN,
      },
    },
  ],
  // Never a session cookie, whatever the answer.
  check: (answer) => expect(answer.response.headers.getSetCookie()).toEqual([]),
});

describe("POST /one-tap/callback: malformed requests", () => {
  const cases: Array<{
    name: string;
    body: string;
    type?: string;
    status: number;
    code?: string;
    message?: string;
  }> = [
    {
      name: "a url-encoded form",
      body: "idToken=x",
      type: "application/x-www-form-urlencoded",
      status: 415,
      code: "UNSUPPORTED_MEDIA_TYPE",
    },
    { name: "an empty idToken", body: '{"idToken":""}', status: 400, message: "invalid id token" },
    {
      name: "a 1 MB three-part idToken",
      body: JSON.stringify({ idToken: `${MB.slice(0, 300_000)}.${MB.slice(0, 300_000)}.x` }),
      status: 400,
      message: "invalid id token",
    },
    {
      name: "control characters",
      body: JSON.stringify({ idToken: "a.b.c\r\n\u0000" }),
      status: 400,
      message: "invalid id token",
    },
    {
      name: "unicode",
      body: JSON.stringify({ idToken: "ünï.cødé.\u202e" }),
      status: 400,
      message: "invalid id token",
    },
    {
      name: "alg none",
      body: JSON.stringify({
        idToken: `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify({ ...ada, aud: CLIENT_ID })).toString("base64url")}.`,
      }),
      status: 400,
      message: "invalid id token",
    },
  ];
  for (const c of cases) {
    it(`${c.name} → ${c.status} ${c.code ?? c.message}`, async () => {
      const t = oneTapInstance(idp);
      const headers: Record<string, string> = {};
      if (c.type !== "") headers["content-type"] = c.type ?? "application/json";
      const res = await t.request("/one-tap/callback", { method: "POST", headers, body: c.body });
      const got = await answer(res);
      expect(got).toMatchObject({
        status: c.status,
        ...(c.code ? { code: c.code } : {}),
        ...(c.message ? { message: c.message } : {}),
      });
      // Never the submitted token back, never a session cookie.
      expect(got.message ?? "").not.toContain("xxxxxxxxxx");
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(await rowCounts(t)).toEqual(none);
    });
  }

  it("extra fields cannot choose the account, the user or the email", async () => {
    const t = oneTapInstance(idp);
    const res = await t.oneTapWith(await idp.signIdToken(ada), {
      providerId: "github",
      accountId: "someone",
      email: "admin@example.com",
      user: { email: "admin@example.com", role: "admin" },
      emailVerified: true,
    });
    expect(res.status).toBe(200);
    const [account] = await t.db.findMany<Row>({ model: "account" });
    expect(account).toMatchObject({ providerId: "google", accountId: "google-sub-1" });
    const [user] = await t.db.findMany<Row>({ model: "user" });
    expect(user).toMatchObject({ email: "ada@example.com" });
    expect(user).not.toHaveProperty("role");
  });
});

describe("redirect target and origin (checks on)", () => {
  it("a foreign, protocol-relative, backslash, javascript: or CRLF callbackURL is 403 INVALID_CALLBACK_URL, no sign-in", async () => {
    const t = oneTapInstance(idp, checked);
    const token = await idp.signIdToken(ada);
    for (const callbackURL of [
      "https://evil.test",
      "//evil.test",
      "/\\evil.test",
      "javascript:alert(1)",
      "http://localhost:3000@evil.test",
      "http://localhost:3000/x\r\nSet-Cookie: a=b",
      "/x\r\nSet-Cookie: a=b",
    ]) {
      const res = await t.oneTapWith(token, { callbackURL });
      expect({ callbackURL, ...(await answer(res)) }).toMatchObject({
        callbackURL,
        status: 403,
        code: "INVALID_CALLBACK_URL",
      });
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expect(await rowCounts(t)).toEqual(none);
    expect((await t.oneTapWith(token, { callbackURL: "/dashboard" })).status).toBe(200);
  });

  it("login CSRF: a credentialed request from a foreign origin is 403 INVALID_ORIGIN before the token is used", async () => {
    const t = oneTapInstance(idp, checked);
    const token = await idp.signIdToken(ada);
    for (const origin of ["https://evil.test", "null"]) {
      const res = await t.post("/one-tap/callback", { idToken: token }, { cookie: "a=b", origin });
      expect((await answer(res)).status).toBe(403);
    }
    const missing = await t.post("/one-tap/callback", { idToken: token }, { cookie: "a=b" });
    expect(await answer(missing)).toMatchObject({ status: 403, code: "MISSING_OR_NULL_ORIGIN" });
    expect(await rowCounts(t)).toEqual(none);
  });
});

describe("replay", () => {
  it("a token replayed within its lifetime signs the same user in again (the reference keeps no record of used tokens)", async () => {
    const t = oneTapInstance(idp);
    const token = await idp.signIdToken(ada);
    const first = await t.oneTapWith(token);
    const again = await t.oneTapWith(token);
    expect([first.status, again.status]).toEqual([200, 200]);
    // No second user or account: only a second session for the token's own subject.
    expect(await rowCounts(t)).toEqual({ user: 1, account: 1, session: 2 });
  });
});

describe("a failing database", () => {
  function faultyInstance(faults: FaultSwitch, logged: string[]) {
    const store: Record<string, Row[]> = {};
    const auth = createAuth({
      database: faultyAdapter(memoryAdapter(store), faults),
      secret: SECRET,
      baseURL: BASE,
      socialProviders: { google: { clientId: CLIENT_ID, clientSecret: "unused" } },
      logger: {
        level: "debug",
        log: (_l, m, ...args) => void logged.push([m, ...args.map(String)].join(" ")),
      },
      plugins: [oneTap({ jwksURL: `${idp.issuer}/jwks`, issuer: idp.issuer })],
    });
    const post = (body: unknown) =>
      auth.handler(
        new Request(`${BASE}/api/auth/one-tap/callback`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    return { store, post };
  }

  it("failing user, session and account writes answer the reference's 401 messages; no session, no secret logged", async () => {
    const faults: FaultSwitch = { fault: null, failed: [] };
    const logged: string[] = [];
    const { store, post } = faultyInstance(faults, logged);
    const tokens: string[] = [];
    for (const [fault, message] of [
      [{ method: "create", model: "user" }, "unable to create user"],
      [{ method: "create", model: "session" }, "unable to create session"],
    ] as const) {
      const token = await idp.signIdToken(ada);
      tokens.push(token);
      faults.fault = fault;
      const res = await post({ idToken: token });
      faults.fault = null;
      expect({ fault, ...(await answer(res)) }).toEqual({ fault, status: 401, message });
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    // Updating the stored tokens of a returning user fails.
    const token = await idp.signIdToken({ ...ada, name: "Ada again" });
    tokens.push(token);
    faults.fault = { method: "update", model: "account" };
    const res = await post({ idToken: token });
    faults.fault = null;
    expect(await answer(res)).toEqual({ status: 401, message: "unable to update account" });
    expect(store.session ?? []).toHaveLength(0);
    expect(faults.failed).toEqual(["create:user", "create:session", "update:account"]);
    const log = logged.join("\n");
    expect(log).toContain(FAULT_MESSAGE);
    for (const t of tokens) expect(log).not.toContain(t);
  });

  it("the account lookup failing is the internal_server_error redirect core gives OAuth storage failures", async () => {
    const faults: FaultSwitch = { fault: { method: "findMany", model: "account" }, failed: [] };
    const { store, post } = faultyInstance(faults, []);
    const res = await post({ idToken: await idp.signIdToken(ada) });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("internal_server_error");
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(store.user ?? []).toHaveLength(0);
  });
});
