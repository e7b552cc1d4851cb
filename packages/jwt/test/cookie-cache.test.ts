import { client, TEST_BASE_URL, type TestAuth } from "@latchkey/test-support";
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { KEY_CACHE_TTL_MS } from "../src/key-cache.ts";
import { SESSION_CACHE_JWT_AUDIENCE, SESSION_CACHE_JWT_TYPE } from "../src/index.ts";
import { ada, jwtInstance, signedIn } from "./instance.ts";

let open: TestAuth[] = [];
afterEach(async () => {
  await Promise.all(open.map((t) => t.close()));
  open = [];
});

const DATA_COOKIE = "better-auth.session_data";
const jwtCache = { session: { cookieCache: { enabled: true, strategy: "jwt" as const } } };

async function cached() {
  const t = await jwtInstance({ sessionCookieCache: true }, "sqlite", jwtCache);
  open.push(t);
  const c = await signedIn(t);
  return { t, c, value: c.jar.values.get(DATA_COOKIE)! };
}
const deleteSessions = (t: TestAuth) => t.auth.$context.adapter.deleteMany({ model: "session", where: [] });
const email = async (c: Awaited<ReturnType<typeof signedIn>>) =>
  ((await c.get("/get-session")).json as { user: { email: string } } | null)?.user.email ?? null;

describe("sessionCookieCache", () => {
  it("the cache cookie is a JWT under the plugin's keys, verifiable with /jwks alone", async () => {
    const { c, value } = await cached();
    const header = decodeProtectedHeader(value);
    expect(header).toMatchObject({ alg: "EdDSA", typ: SESSION_CACHE_JWT_TYPE });
    const keys = (await c.get("/jwks")).json as JSONWebKeySet;
    const { payload } = await jwtVerify(value, createLocalJWKSet(keys), {
      audience: SESSION_CACHE_JWT_AUDIENCE,
      issuer: TEST_BASE_URL,
      typ: SESSION_CACHE_JWT_TYPE,
    });
    const { session, user } = payload as { session: { token: string }; user: { id: string; email: string } };
    expect(payload).toMatchObject({ sub: user.id, sid: session.token });
    expect(user.email).toBe(ada.email);
    expect(payload.exp! - payload.iat!).toBe(300);
  });

  it("sessions are answered from it (storage emptied); a foreign or removed key's cache is refused", async () => {
    const { t, c } = await cached();
    await deleteSessions(t);
    expect(await email(c)).toBe(ada.email);
    // The key goes away (a clean-up of the key table): once the keys held in memory are older
    // than KEY_CACHE_TTL_MS, the cache no longer verifies and is expired.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      await t.auth.$context.adapter.deleteMany({ model: "jwks", where: [] });
      vi.setSystemTime(Date.now() + KEY_CACHE_TTL_MS + 1000);
      const res = await c.get("/get-session");
      expect(res.json).toBeNull();
      expect(c.jar.values.get(DATA_COOKIE)).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it("a session JWT of the same key (/token) is not a cache: its typ and audience differ", async () => {
    const { t, c } = await cached();
    const { token } = (await c.get("/token")).json as { token: string };
    expect(decodeJwt(token).aud).toBe(TEST_BASE_URL);
    await deleteSessions(t);
    c.jar.values.set(DATA_COOKIE, token);
    expect((await c.get("/get-session")).json).toBeNull();
  });

  it("another strategy is refused at start-up, as the reference", async () => {
    const t = await jwtInstance({ sessionCookieCache: true }, "sqlite", {
      session: { cookieCache: { enabled: true, strategy: "compact" } },
    });
    open.push(t);
    const res = await client(t.auth).get("/jwks");
    expect(res.status).toBe(500);
    await expect(t.auth.api.getSession({ headers: new Headers() })).rejects.toThrow(/strategy = "jwt"/);
  });
});
