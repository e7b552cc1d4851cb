import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { base64UrlEncode, utf8Encode, type CookieCacheOptions, type LatchkeyOptions } from "../src/index.ts";
import {
  cacheInstance,
  cachedToken,
  DATA_COOKIE,
  Jar,
  readCache,
  setCookies,
  TOKEN_COOKIE,
} from "./support/cache-instance.ts";

// Only Date is faked: expiry is a matter of the clock, while I/O and timers run normally.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});
const advance = (seconds: number): void => {
  vi.setSystemTime(Date.now() + seconds * 1000);
};

let serial = 0;
const newUser = () => ({
  name: `User ${++serial}`,
  email: `user${serial}@example.com`,
  password: "correct horse battery",
});
const dataCookies = (res: Response) => setCookies(res).filter((c) => c.name.startsWith(DATA_COOKIE));

type Instance = ReturnType<typeof cacheInstance>;

async function signUp(t: Instance, extra: Record<string, unknown> = {}) {
  const user = { ...newUser(), ...extra };
  const res = await t.post("/sign-up/email", user);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { token: string; user: { id: string } };
  return { res, body, user, jar: new Jar().store(res) };
}

const STRATEGIES = ["compact", "jwt", "jwe"] as const;

describe.each(STRATEGIES)("session cache cookie, %s strategy", (strategy) => {
  const instance = (cache: CookieCacheOptions = {}, options: Partial<LatchkeyOptions> = {}) =>
    cacheInstance({
      ...options,
      session: { ...options.session, cookieCache: { enabled: true, strategy, ...cache } },
    });

  it("is written on sign-up and sign-in, bound to the new session, with Max-Age 300", async () => {
    const t = instance();
    const { res, body, user } = await signUp(t);
    const [data] = dataCookies(res);
    expect(data?.line).toMatch(/; Max-Age=300; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(await cachedToken(strategy, data!.value)).toBe(body.token);
    if (strategy === "jwt")
      expect(data!.value.split(".")[0]).toBe(base64UrlEncode(utf8Encode('{"alg":"HS256"}')));
    if (strategy === "jwe") expect(data!.value.split(".")).toHaveLength(5);

    const signIn = await t.post("/sign-in/email", { email: user.email, password: user.password });
    const token = ((await signIn.json()) as { token: string }).token;
    expect(await cachedToken(strategy, dataCookies(signIn)[0]!.value)).toBe(token);
  });

  it("answers /get-session without a storage read until it expires, then no longer", async () => {
    const t = instance();
    const { jar } = await signUp(t);
    const fromStorage = await (await t.getSession(jar.header(), "?disableCookieCache=true")).json();
    t.dropSessions();
    const reads = t.reads.count;
    const cached = await t.getSession(jar.header());
    expect(t.reads.count).toBe(reads);
    expect(cached.headers.get("cache-control")).toBe("no-store");
    expect(setCookies(cached)).toEqual([]);
    expect(await cached.json()).toEqual(fromStorage);

    advance(299);
    expect(await (await t.getSession(jar.header())).json()).toEqual(fromStorage);
    advance(2);
    const expired = await t.getSession(jar.header());
    expect(await expired.json()).toBeNull();
    // The stale cache is expired, and, the session being gone, every session cookie with it.
    expect(
      setCookies(expired)
        .filter((c) => c.maxAge === 0)
        .map((c) => c.name),
    ).toEqual(expect.arrayContaining([TOKEN_COOKIE, DATA_COOKIE]));
  });

  it("is expired when it was issued for another session", async () => {
    const t = instance();
    const a = await signUp(t);
    const b = await signUp(t);
    const foreign = a.jar.with(DATA_COOKIE, b.jar.cookies.get(DATA_COOKIE)!);
    const res = await t.getSession(foreign);
    const body = (await res.json()) as { session: { token: string } };
    expect(body.session.token).toBe(a.body.token);
    // Expired, then re-issued for the right session from storage.
    const written = dataCookies(res);
    expect(written.map((c) => c.maxAge)).toEqual([0, 300]);
    expect(await cachedToken(strategy, written[1]!.value)).toBe(a.body.token);
    // Without storage, B's cache does not answer for A's session cookie.
    t.dropSessions();
    expect(await (await t.getSession(foreign)).json()).toBeNull();
  });

  it("is expired when tampered with, and a malformed one is not a server error", async () => {
    const t = instance();
    const { jar } = await signUp(t);
    const value = jar.cookies.get(DATA_COOKIE)!;
    const parts = value.split(".");
    const tampered =
      strategy === "compact"
        ? base64UrlEncode(
            utf8Encode(
              JSON.stringify({ ...(await readCache(strategy, value)), expiresAt: Date.now() + 9e9 }),
            ),
          )
        : strategy === "jwt"
          ? [
              parts[0],
              base64UrlEncode(
                utf8Encode(JSON.stringify({ ...(await readCache(strategy, value)), exp: 9e9 })),
              ),
              parts[2],
            ].join(".")
          : [...parts.slice(0, 3), `${parts[3]![0] === "A" ? "B" : "A"}${parts[3]!.slice(1)}`, parts[4]].join(
              ".",
            );
    for (const bad of [tampered, "%%%", "not-a-cache!!", ""]) {
      const res = await t.getSession(jar.with(DATA_COOKIE, bad));
      expect(res.status).toBe(200);
      expect(((await res.json()) as { user: { email: string } }).user.email).toMatch(/@example\.com$/);
      if (bad) expect(dataCookies(res)[0]?.maxAge).toBe(0);
    }
    t.dropSessions();
    expect(await (await t.getSession(jar.with(DATA_COOKIE, tampered))).json()).toBeNull();
  });

  it("is expired after maxAge and re-issued from storage", async () => {
    const t = instance({ maxAge: 600 });
    const { jar, res } = await signUp(t);
    expect(dataCookies(res)[0]?.maxAge).toBe(600);
    advance(601);
    const reads = t.reads.count;
    const again = await t.getSession(jar.header());
    expect(t.reads.count).toBeGreaterThan(reads);
    expect(dataCookies(again).map((c) => c.maxAge)).toEqual([0, 600]);
    expect(await again.json()).not.toBeNull();
  });

  it("is not used once the session it carries has expired", async () => {
    // The cache outlives the session: its own expiry alone must not keep the session alive.
    const t = instance({}, { session: { expiresIn: 100, updateAge: 100 } });
    const { jar } = await signUp(t);
    advance(101);
    const res = await t.getSession(jar.header());
    expect(await res.json()).toBeNull();
    expect(t.store.session).toEqual([]);
  });

  it("is refused once the version changes", async () => {
    let version = "1";
    const t = instance({ version: () => version });
    const { jar } = await signUp(t);
    t.dropSessions();
    expect(await (await t.getSession(jar.header())).json()).not.toBeNull();
    version = "2";
    const res = await t.getSession(jar.header());
    expect(await res.json()).toBeNull();
    expect(dataCookies(res)[0]?.maxAge).toBe(0);
  });

  it("with rememberMe false: a browser-session cookie, content valid 60 s (compact) or 300 s", async () => {
    const t = instance();
    const { user } = await signUp(t);
    const res = await t.post("/sign-in/email", {
      email: user.email,
      password: user.password,
      rememberMe: false,
    });
    const jar = new Jar().store(res);
    const [data] = dataCookies(res);
    expect(data?.maxAge).toBeUndefined();
    const content = await readCache(strategy, data!.value);
    const lifetime = strategy === "compact" ? 60 : 300;
    if (strategy === "compact") expect(content.expiresAt).toBe(Date.now() + 60_000);
    else expect(Number(content.exp) - Number(content.iat)).toBe(300);
    t.dropSessions();
    advance(lifetime - 1);
    expect(await (await t.getSession(jar.header())).json()).not.toBeNull();
    advance(2);
    expect(await (await t.getSession(jar.header())).json()).toBeNull();
  });

  it("is expired by sign-out", async () => {
    const t = instance();
    const { jar } = await signUp(t);
    const out = await t.post("/sign-out", {}, { cookie: jar.header() });
    expect(dataCookies(out).map((c) => [c.name, c.maxAge])).toContainEqual([DATA_COOKIE, 0]);
    expect(await (await t.getSession(jar.store(out).header())).json()).toBeNull();
  });

  it("is skipped with ?disableCookieCache", async () => {
    const t = instance();
    const { jar } = await signUp(t);
    t.dropSessions();
    expect(await (await t.getSession(jar.header(), "?disableCookieCache=true")).json()).toBeNull();
  });

  it("without a session cookie is no session, and costs no storage read", async () => {
    const t = instance();
    const { jar } = await signUp(t);
    const reads = t.reads.count;
    const res = await t.getSession(jar.without(TOKEN_COOKIE));
    expect(await res.json()).toBeNull();
    expect(t.reads.count).toBe(reads);
  });

  it("is split into chunks for a large user, read back, and shrinks back to one cookie", async () => {
    const t = instance({}, { user: { additionalFields: { bio: { type: "string", required: false } } } });
    const bio = Array.from({ length: 900 }, (_, i) => `word${i}`).join(" ");
    const { res, jar } = await signUp(t, { bio });
    const chunks = dataCookies(res);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => c.name)).toEqual(chunks.map((_, i) => `${DATA_COOKIE}.${i}`));
    for (const c of chunks) expect(c.line.length).toBeLessThanOrEqual(4050);
    t.dropSessions();
    const cached = (await (await t.getSession(jar.header())).json()) as { user: { bio: string } };
    expect(cached.user.bio).toBe(bio);
  });

  it("is re-issued by a profile update", async () => {
    const t = instance();
    const { jar } = await signUp(t);
    const updated = await t.post("/update-user", { name: "Renamed" }, { cookie: jar.header() });
    expect(updated.status).toBe(200);
    jar.store(updated);
    t.dropSessions();
    const cached = (await (await t.getSession(jar.header())).json()) as { user: { name: string } };
    expect(cached.user.name).toBe("Renamed");
  });
});
