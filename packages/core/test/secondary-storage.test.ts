import { describe, expect, it } from "vitest";
import type { LatchkeyOptions, Row } from "../src/index.ts";
import { signCookieValue } from "../src/index.ts";
import { cookiePair, findCookie, SECRET, testInstance } from "./support/instance.ts";
import { mapStorage } from "./support/map-storage.ts";

const person = { name: "Ada", email: "ada@example.com", password: "password-1234" };
const WEEK = 604_800;

interface StoredPair {
  session: Record<string, unknown>;
  user: Record<string, unknown>;
}

/** A core instance on a Map storage, signed up once; `cookie` and `token` of that session. */
async function signedUp(options: Partial<LatchkeyOptions> = {}, storageOptions: { atomic?: boolean } = {}) {
  const kv = mapStorage(storageOptions);
  const t = testInstance({ secondaryStorage: kv.storage, ...options });
  const res = await t.post("/sign-up/email", person);
  expect(res.status).toBe(200);
  const body = await res.json();
  const cookie = cookiePair(findCookie(res, "better-auth.session_token")!);
  const session = async (c = cookie) => (await t.request("/get-session", { headers: { cookie: c } })).json();
  return { ...t, kv, cookie, token: body.token as string, userId: body.user.id as string, session };
}

describe("sessions in secondary storage only (reference layout, core.md §2.5)", () => {
  it("stores <token> → {session, user} and active-sessions-<userId>, no database row", async () => {
    const t = await signedUp();
    expect(t.count("session")).toBe(0);
    const stored = t.kv.json(t.token) as StoredPair;
    expect(stored.session).toMatchObject({
      token: t.token,
      userId: t.userId,
      ipAddress: "127.0.0.1",
      userAgent: "",
    });
    expect(stored.session.id).toMatch(/^[A-Za-z0-9]{32}$/);
    // Dates are ISO strings, as JSON.stringify writes them in the reference.
    expect(stored.session.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(stored.user).toMatchObject({ id: t.userId, email: person.email, emailVerified: false });
    expect(t.kv.ttl(t.token)).toBeGreaterThanOrEqual(WEEK - 2);
    expect(t.kv.ttl(t.token)).toBeLessThanOrEqual(WEEK);
    const list = t.kv.json(`active-sessions-${t.userId}`) as Array<{ token: string; expiresAt: number }>;
    expect(list).toEqual([{ token: t.token, expiresAt: Date.parse(stored.session.expiresAt as string) }]);
    expect(t.kv.ttl(`active-sessions-${t.userId}`)).toBe(t.kv.ttl(t.token));
  });

  it("serves /get-session from the storage with dates and the stored user", async () => {
    const t = await signedUp();
    const body = await t.session();
    const stored = t.kv.json(t.token) as StoredPair;
    expect(body.session).toEqual(stored.session);
    expect(body.user).toEqual(stored.user);
  });

  it("accepts a session in the exact form the reference writes", async () => {
    const t = await signedUp();
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const token = "RefWrittenToken0123456789abcdefAB";
    const session = {
      id: "refSessionId0123456789abcdefABCD",
      ipAddress: "",
      userAgent: "curl",
      expiresAt: iso(now + WEEK * 1000),
      userId: t.userId,
      token,
      createdAt: iso(now),
      updatedAt: iso(now),
    };
    const user = {
      name: "Ada",
      email: person.email,
      emailVerified: false,
      image: null,
      createdAt: iso(now),
      updatedAt: iso(now),
      id: t.userId,
    };
    await t.kv.raw(token, JSON.stringify({ session, user }), 3600);
    const cookie = `better-auth.session_token=${encodeURIComponent(await signCookieValue(token, SECRET))}`;
    expect(await t.session(cookie)).toEqual({ session, user });
  });

  it("reads a corrupt or foreign value as no session, never a 500", async () => {
    const t = await signedUp();
    for (const value of [
      "{not json",
      '"a string"',
      "[]",
      JSON.stringify({ session: { token: "x" }, user: {} }),
    ]) {
      await t.kv.raw(t.token, value, 60);
      const res = await t.request("/get-session", { headers: { cookie: t.cookie } });
      expect(res.status).toBe(200);
      expect(await res.json()).toBeNull();
    }
  });

  it("sign-out deletes the token key and the list entry", async () => {
    const t = await signedUp();
    const second = await t.post("/sign-in/email", { email: person.email, password: person.password });
    const secondToken = (await second.json()).token as string;
    expect((t.kv.json(`active-sessions-${t.userId}`) as unknown[]).length).toBe(2);
    const out = await t.post("/sign-out", {}, { cookie: t.cookie });
    expect(out.status).toBe(200);
    expect(t.kv.has(t.token)).toBe(false);
    expect(t.kv.json(`active-sessions-${t.userId}`)).toEqual([
      { token: secondToken, expiresAt: expect.any(Number) },
    ]);
    expect(await t.session()).toBeNull();
    await t.post(
      "/revoke-sessions",
      {},
      { cookie: cookiePair(findCookie(second, "better-auth.session_token")!) },
    );
    expect(t.kv.keys()).toEqual([]);
  });

  it("never writes with a TTL of 0 or none (a reference Redis store would keep it forever)", async () => {
    const t = await signedUp();
    await t.post("/update-user", { name: "Ada L." }, { cookie: t.cookie });
    await t.post("/sign-out", {}, { cookie: t.cookie });
    expect(t.kv.sets.length).toBeGreaterThan(2);
    for (const set of t.kv.sets) expect(set.ttl).toBeGreaterThan(0);
  });

  it("refreshes the expiry in the storage once updateAge has passed", async () => {
    const t = await signedUp({ session: { expiresIn: 3600, updateAge: 0 } });
    const before = (t.kv.json(t.token) as StoredPair).session.expiresAt as string;
    await new Promise((r) => setTimeout(r, 1100));
    const body = await t.session();
    expect(Date.parse(body.session.expiresAt)).toBeGreaterThan(Date.parse(before));
    const stored = t.kv.json(t.token) as StoredPair;
    expect(stored.session.expiresAt).toBe(body.session.expiresAt);
    expect(t.kv.json(`active-sessions-${t.userId}`)).toEqual([
      { token: t.token, expiresAt: Date.parse(body.session.expiresAt) },
    ]);
  });

  it("update-user rewrites the user inside every stored session", async () => {
    const t = await signedUp();
    const other = await t.post("/sign-in/email", { email: person.email, password: person.password });
    const otherToken = (await other.json()).token as string;
    expect((await t.post("/update-user", { name: "Ada L." }, { cookie: t.cookie })).status).toBe(200);
    expect((t.kv.json(otherToken) as StoredPair).user.name).toBe("Ada L.");
    expect((await t.session()).user.name).toBe("Ada L.");
  });

  it("list-sessions, revoke-session and revoke-other-sessions work on the stored list", async () => {
    const t = await signedUp();
    const tokens = [t.token];
    for (let i = 0; i < 2; i++) {
      const res = await t.post("/sign-in/email", { email: person.email, password: person.password });
      tokens.push((await res.json()).token);
    }
    const listed = await (await t.request("/list-sessions", { headers: { cookie: t.cookie } })).json();
    expect(listed.map((s: { token: string }) => s.token).sort()).toEqual([...tokens].sort());
    await t.post("/revoke-session", { token: tokens[1] }, { cookie: t.cookie });
    expect(t.kv.has(tokens[1]!)).toBe(false);
    await t.post("/revoke-other-sessions", {}, { cookie: t.cookie });
    expect(t.kv.has(tokens[2]!)).toBe(false);
    expect(t.kv.json(`active-sessions-${t.userId}`)).toEqual([
      { token: t.token, expiresAt: expect.any(Number) },
    ]);
  });

  it("deleteUser clears the stored sessions without touching a session table", async () => {
    const t = await signedUp();
    await t.auth.$context.internalAdapter.deleteUser(t.userId);
    expect(t.kv.keys()).toEqual([]);
    expect(t.count("user")).toBe(0);
  });

  it("marks session and verification as storage-only tables (no migration), keeps their fields", async () => {
    const t = await signedUp();
    const { schema } = t.auth.$context;
    expect(schema.session?.disableMigration).toBe(true);
    expect(schema.verification?.disableMigration).toBe(true);
    expect(schema.session?.fields.expiresAt?.type).toBe("date");
    const both = testInstance({
      secondaryStorage: mapStorage().storage,
      session: { storeSessionInDatabase: true },
      verification: { storeInDatabase: true },
    });
    expect(both.auth.$context.schema.session?.disableMigration).toBe(false);
    expect(both.auth.$context.schema.verification?.disableMigration).toBe(false);
    expect(testInstance().auth.$context.secondaryStorage).toBeUndefined();
    expect(t.auth.$context.secondaryStorage).toBeDefined();
  });

  it("refuses a secondaryStorage without get/set/delete at createAuth", () => {
    const bad = { get: async () => null } as unknown as LatchkeyOptions["secondaryStorage"];
    expect(() => testInstance({ secondaryStorage: bad })).toThrow(TypeError);
  });
});

describe("storeSessionInDatabase and preserveSessionInDatabase", () => {
  it("writes both stores; a missing key falls back to the database row", async () => {
    const t = await signedUp({ session: { storeSessionInDatabase: true } });
    expect(t.count("session")).toBe(1);
    const row = t.store.session![0] as Row;
    expect((t.kv.json(t.token) as StoredPair).session.id).toBe(row.id);
    await t.kv.storage.delete(t.token);
    expect((await t.session()).session.token).toBe(t.token);
    await t.post("/sign-out", {}, { cookie: t.cookie });
    expect(t.count("session")).toBe(0);
    expect(await t.session()).toBeNull();
  });

  it("preserve: sign-out ends the row (expiresAt = now) and reads never fall back", async () => {
    const t = await signedUp({ session: { storeSessionInDatabase: true, preserveSessionInDatabase: true } });
    await t.post("/sign-out", {}, { cookie: t.cookie });
    expect(t.count("session")).toBe(1);
    const row = t.store.session![0] as Row;
    expect((row.expiresAt as Date).getTime()).toBeLessThanOrEqual(Date.now());
    expect(t.kv.has(t.token)).toBe(false);
    expect(await t.session()).toBeNull();
  });

  it("preserve: delete hooks still run, once per session, when sessions are ended", async () => {
    const deleted: string[] = [];
    const t = await signedUp({
      session: { storeSessionInDatabase: true, preserveSessionInDatabase: true },
      databaseHooks: { session: { delete: { after: (row) => void deleted.push(String(row.token)) } } },
    });
    await t.post("/revoke-sessions", {}, { cookie: t.cookie });
    await t.auth.$context.internalAdapter.deleteUserSessions(t.userId);
    expect(deleted).toEqual([t.token]);
    expect(t.count("session")).toBe(1);
  });
});
