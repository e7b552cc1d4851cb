import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createAuth,
  endpoint,
  hmacBase64Url,
  memoryAdapter,
  sensitiveSessionMiddleware,
  sessionMiddleware,
  type CookieCacheOptions,
  type CookieCacheStrategy,
  type LatchkeyOptions,
  type LatchkeyPlugin,
} from "../src/index.ts";
import { cacheInstance, DATA_COOKIE, Jar, readCache, setCookies } from "./support/cache-instance.ts";
import { SECRET } from "./support/instance.ts";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

let serial = 0;
const newUser = () => ({
  name: `Format ${++serial}`,
  email: `format${serial}@example.com`,
  password: "correct horse battery",
});
const dataCookies = (res: Response) => setCookies(res).filter((c) => c.name.startsWith(DATA_COOKIE));
const cacheOn = (strategy: CookieCacheStrategy = "compact", extra: Partial<LatchkeyOptions> = {}) =>
  cacheInstance({ ...extra, session: { ...extra.session, cookieCache: { enabled: true, strategy } } });

async function signUp(t: ReturnType<typeof cacheInstance>, extra: Record<string, unknown> = {}) {
  const res = await t.post("/sign-up/email", { ...newUser(), ...extra });
  expect(res.status).toBe(200);
  return { res, jar: new Jar().store(res), body: (await res.json()) as { token: string } };
}

describe("compact cache format (reference core.md §7)", () => {
  it("is base64url JSON {session, expiresAt, signature} over {session, user, updatedAt, version}", async () => {
    const t = cacheOn("compact", {
      user: { additionalFields: { secretNote: { type: "string", required: false, returned: false } } },
    });
    const { res } = await signUp(t, { secretNote: "never in a cookie" });
    const value = dataCookies(res)[0]!.value;
    expect(value).toMatch(/^[A-Za-z0-9_-]+$/); // base64url, no padding
    const outer = await readCache("compact", value);
    expect(Object.keys(outer)).toEqual(["session", "expiresAt", "signature"]);
    const data = outer.session as Record<string, Record<string, unknown>>;
    expect(Object.keys(data)).toEqual(["session", "user", "updatedAt", "version"]);
    expect(data.version).toBe("1");
    expect(data.updatedAt).toBe(Date.now());
    expect(outer.expiresAt).toBe(Date.now() + 300_000);
    // Fields the API never returns never enter the cookie either.
    expect(data.user).not.toHaveProperty("secretNote");
    expect(t.store.user![0]!.secretNote).toBe("never in a cookie");
    const message = JSON.stringify({ ...data, expiresAt: outer.expiresAt });
    expect(outer.signature).toBe(await hmacBase64Url(SECRET, message));
  });

  it("refuses a cache signed under another secret", async () => {
    const store = {};
    const t = cacheInstance({ session: { cookieCache: { enabled: true } } }, store);
    const { jar } = await signUp(t);
    const other = cacheInstance(
      { secret: `${SECRET}-other`, session: { cookieCache: { enabled: true } } },
      store,
    );
    other.dropSessions();
    // Another secret also breaks the session cookie signature: no session at all.
    expect(await (await other.getSession(jar.header())).json()).toBeNull();
  });
});

describe("chunked cache cookies", () => {
  const big = (words: number) => Array.from({ length: words }, (_, i) => `w${i}`).join(" ");
  const withBio = { user: { additionalFields: { bio: { type: "string" as const, required: false } } } };

  it("expires the old chunks when the cache shrinks back to one cookie", async () => {
    const t = cacheOn("compact", withBio);
    const { res, jar } = await signUp(t, { bio: big(1500) });
    const chunkNames = dataCookies(res).map((c) => c.name);
    expect(chunkNames.length).toBeGreaterThan(2);
    const updated = await t.post("/update-user", { bio: "short" }, { cookie: jar.header() });
    const written = dataCookies(updated);
    for (const name of chunkNames)
      expect(written).toContainEqual(expect.objectContaining({ name, maxAge: 0 }));
    expect(written.at(-1)).toMatchObject({ name: DATA_COOKIE, maxAge: 300 });
    jar.store(updated);
    expect([...jar.cookies.keys()].filter((n) => n.startsWith(DATA_COOKIE))).toEqual([DATA_COOKIE]);
  });

  it("writes no cache (and warns) past 100 chunks, and the sign-up still succeeds", async () => {
    const warnings: string[] = [];
    const t = cacheOn("compact", {
      ...withBio,
      logger: { log: (level, message) => level === "warn" && warnings.push(message) },
    });
    const { res } = await signUp(t, { bio: big(80_000) });
    expect(dataCookies(res)).toEqual([]);
    expect(warnings.join("\n")).toMatch(/more than 100 chunks/);
  });

  it("expires every chunk on sign-out and when a chunk is tampered with", async () => {
    const t = cacheOn("jwt", withBio);
    const { res, jar } = await signUp(t, { bio: big(1500) });
    const names = dataCookies(res).map((c) => c.name);
    const tampered = await t.getSession(jar.with(names[1]!, "AAAA"));
    for (const name of names)
      expect(dataCookies(tampered)).toContainEqual(expect.objectContaining({ name, maxAge: 0 }));
    const out = await t.post("/sign-out", {}, { cookie: jar.header() });
    for (const name of [DATA_COOKIE, ...names]) {
      expect(dataCookies(out)).toContainEqual(expect.objectContaining({ name, maxAge: 0 }));
    }
  });
});

describe("with the cache off", () => {
  it("clears a leftover cache cookie and its chunks, with or without a session", async () => {
    const t = cacheInstance();
    const { jar, res } = await signUp(t);
    expect(dataCookies(res)).toEqual([]);
    const leftover = `${jar.header()}; ${DATA_COOKIE}=old; ${DATA_COOKIE}.0=a; ${DATA_COOKIE}.1=b`;
    const withSession = await t.getSession(leftover);
    expect(((await withSession.json()) as { session: { token: string } }).session.token).toBeTruthy();
    expect(dataCookies(withSession).map((c) => [c.name, c.maxAge])).toEqual([
      [DATA_COOKIE, 0],
      [`${DATA_COOKIE}.0`, 0],
      [`${DATA_COOKIE}.1`, 0],
    ]);
    const anonymous = await t.getSession(`${DATA_COOKIE}.0=a`);
    expect(await anonymous.json()).toBeNull();
    expect(dataCookies(anonymous).map((c) => [c.name, c.maxAge])).toEqual([[`${DATA_COOKIE}.0`, 0]]);
  });

  it("never answers from a cache cookie, even a valid one", async () => {
    const store = {};
    const on = cacheInstance({ session: { cookieCache: { enabled: true } } }, store);
    const { jar } = await signUp(on);
    const off = cacheInstance({}, store);
    off.dropSessions();
    expect(await (await off.getSession(jar.header())).json()).toBeNull();
  });
});

/** Two probe routes: one behind the session middleware, one behind the sensitive one. */
const probes: LatchkeyPlugin = {
  id: "probes",
  endpoints: {
    probeSession: endpoint("/probe/session", { method: "GET", use: [sessionMiddleware] }, (ctx) => ({
      id: ctx.context.session.user.id,
    })),
    probeSensitive: endpoint("/probe/sensitive", { method: "GET", use: [sensitiveSessionMiddleware] }, (ctx) => ({
      id: ctx.context.session.user.id,
    })),
  },
};

describe("session middlewares", () => {
  it("sessionMiddleware accepts the cache; sensitiveSessionMiddleware always reads storage", async () => {
    const t = cacheOn("compact", { plugins: [probes] });
    const { jar } = await signUp(t);
    expect((await t.request("/probe/sensitive", { headers: { cookie: jar.header() } })).status).toBe(200);
    t.dropSessions();
    const cached = await t.request("/probe/session", { headers: { cookie: jar.header() } });
    expect(cached.status).toBe(200);
    const sensitive = await t.request("/probe/sensitive", { headers: { cookie: jar.header() } });
    expect(sensitive.status).toBe(401);
    expect(await sensitive.json()).toEqual({ message: "Unauthorized", code: "UNAUTHORIZED" });
    // The route's own ?disableCookieCache reaches the middleware too, as in the reference.
    expect(
      (await t.request("/probe/session?disableCookieCache=true", { headers: { cookie: jar.header() } }))
        .status,
    ).toBe(401);
  });

  it("the cached session carries real dates (fresh-session checks work from the cache)", async () => {
    const t = cacheOn("jwe", { plugins: [probes], session: { freshAge: 60 } });
    const { jar } = await signUp(t);
    t.dropSessions();
    // list-sessions sits behind freshSessionMiddleware: it reads createdAt from the cache.
    expect((await t.request("/list-sessions", { headers: { cookie: jar.header() } })).status).toBe(200);
    vi.setSystemTime(Date.now() + 61_000);
    const stale = await t.request("/list-sessions", { headers: { cookie: jar.header() } });
    expect(stale.status).toBe(403);
    expect(((await stale.json()) as { code: string }).code).toBe("SESSION_NOT_FRESH");
  });
});

describe("cookieCache options", () => {
  const make = (cookieCache: unknown, log?: (level: string, message: string) => void) =>
    createAuth({
      database: memoryAdapter({}),
      secret: SECRET,
      // Deliberately ill-typed values: the checks guard JavaScript callers.
      session: { cookieCache: cookieCache as CookieCacheOptions },
      ...(log && { logger: { log } }),
    });

  it("refuses an unknown strategy or an unusable maxAge at createAuth", () => {
    expect(() => make({ enabled: true, strategy: "plain" })).toThrow(TypeError);
    expect(() => make({ enabled: true, maxAge: 34_560_001 })).toThrow(TypeError);
    expect(() => make({ enabled: true, version: 2 })).toThrow(TypeError);
  });

  it("ignores refreshCache with a warning, as the reference does when a database is configured", () => {
    const warnings: string[] = [];
    make(
      { enabled: true, refreshCache: true },
      (level, message) => level === "warn" && warnings.push(message),
    );
    expect(warnings.join("\n")).toMatch(/refreshCache/);
  });
});
