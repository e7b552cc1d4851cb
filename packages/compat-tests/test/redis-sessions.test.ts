import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSession, signIn, signOut, signUp } from "./support/flows.ts";
import { jsonPost, url, type Handler } from "./support/instances.ts";
import { redisStorage } from "@latchkey/redis-storage";
import { createRedisPair, referenceRedisStorage, type RedisPair } from "./support/redis-pair.ts";

let pair: RedisPair;
let sides: Record<"reference" | "latchkey", Handler>;
beforeAll(async () => {
  pair = await createRedisPair();
  sides = { reference: pair.reference, latchkey: pair.latchkey };
});
afterAll(() => pair.close());

let serial = 0;
const newUser = () => ({
  name: `Redis ${++serial}`,
  email: `redis${serial}@example.com`,
  password: `pass-word-${serial}`,
});
const NAMES = { reference: "reference", latchkey: "Latchkey" } as const;

interface StoredSession {
  session: Record<string, unknown>;
  user: Record<string, unknown>;
}

describe("tables with secondary storage (reference core.md §2.1)", () => {
  it("neither side creates a session or verification table", () => {
    const tables = pair.db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all([]) as Array<{ name: string }>;
    expect(tables.map((t) => t.name)).toEqual(["account", "user"]);
  });
});

for (const [fromKey, toKey] of [
  ["reference", "latchkey"],
  ["latchkey", "reference"],
] as const) {
  const [from, to] = [NAMES[fromKey], NAMES[toKey]];
  describe(`${from} → ${to} through one Redis`, () => {
    it(`a session ${from} stored in Redis is accepted by ${to}'s /get-session`, async () => {
      const { cookie, token, userId } = await signUp(sides[fromKey], newUser());
      const stored = (await pair.stored(token)) as StoredSession;
      expect(stored.session).toMatchObject({ token, userId });
      const own = await getSession(sides[fromKey], { cookie });
      const other = await getSession(sides[toKey], { cookie });
      expect(other?.session.token).toBe(token);
      // One stored value, so the whole body matches, dates included.
      expect(other).toEqual(own);
    });

    it(`sign-out on ${to} removes ${from}'s Redis keys for both`, async () => {
      const { cookie, token, userId } = await signUp(sides[fromKey], newUser());
      expect(await pair.redis.exists(`${pair.keyPrefix}${token}`)).toBe(1);
      const out = await signOut(sides[toKey], cookie);
      expect(out.status).toBe(200);
      expect(
        await pair.redis.exists(`${pair.keyPrefix}${token}`, `${pair.keyPrefix}active-sessions-${userId}`),
      ).toBe(0);
      expect(await getSession(sides[fromKey], { cookie })).toBeNull();
      expect(await getSession(sides[toKey], { cookie })).toBeNull();
    });

    it(`sessions from both sides share one active-sessions list; ${to} lists and revokes ${from}'s`, async () => {
      const user = newUser();
      const first = await signUp(sides[fromKey], user);
      const second = await signIn(sides[toKey], user);
      const list = (await pair.stored(`active-sessions-${first.userId}`)) as Array<{
        token: string;
        expiresAt: number;
      }>;
      expect(list.map((e) => e.token).sort()).toEqual([first.token, second.token].sort());
      const listed = (await (
        await sides[toKey](new Request(url("/list-sessions"), { headers: { cookie: second.cookie } }))
      ).json()) as Array<{ token: string }>;
      expect(listed.map((s) => s.token).sort()).toEqual([first.token, second.token].sort());
      const revoked = await sides[toKey](jsonPost("/revoke-other-sessions", {}, { cookie: second.cookie }));
      expect(revoked.status).toBe(200);
      expect(await getSession(sides[fromKey], { cookie: first.cookie })).toBeNull();
      expect((await pair.stored(`active-sessions-${first.userId}`)) as unknown[]).toEqual([
        { token: second.token, expiresAt: expect.any(Number) },
      ]);
    });

    it(`update-user on ${to} shows in the session ${from} stored`, async () => {
      const { cookie, token } = await signUp(sides[fromKey], newUser());
      const res = await sides[toKey](jsonPost("/update-user", { name: "Renamed" }, { cookie }));
      expect(res.status).toBe(200);
      expect(((await pair.stored(token)) as StoredSession).user.name).toBe("Renamed");
      expect((await getSession(sides[fromKey], { cookie }))?.user.name).toBe("Renamed");
    });
  });
}

describe("the stored values have one shape", () => {
  it("same session and user keys and the same TTL from either side", async () => {
    const user = newUser();
    const ref = await signUp(pair.reference, user);
    const own = await signIn(pair.latchkey, user);
    const [a, b] = [
      (await pair.stored(ref.token)) as StoredSession,
      (await pair.stored(own.token)) as StoredSession,
    ];
    expect(Object.keys(b.session).sort()).toEqual(Object.keys(a.session).sort());
    expect(Object.keys(b.user).sort()).toEqual(Object.keys(a.user).sort());
    expect(b.user).toEqual(a.user);
    for (const field of ["expiresAt", "createdAt", "updatedAt"]) {
      expect(b.session[field]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    // Both sides give the key the session's remaining lifetime (the two sign-ins may be seconds
    // apart on a loaded machine, so each TTL is compared with its own session's expiry).
    const ttlGap = async (token: string, stored: StoredSession) =>
      Math.abs((await pair.redis.ttl(`${pair.keyPrefix}${token}`)) - (Date.parse(String(stored.session.expiresAt)) - Date.now()) / 1000);
    expect(await ttlGap(ref.token, a)).toBeLessThanOrEqual(2);
    expect(await ttlGap(own.token, b)).toBeLessThanOrEqual(2);
  });
});

describe("verification values through one Redis", () => {
  const refAdapter = async () => (await pair.referenceAuth.$context).internalAdapter;
  const expiresAt = () => new Date(Date.now() + 60_000);

  it("a value the reference stored is consumed once by Latchkey", async () => {
    await (
      await refAdapter()
    ).createVerificationValue({ identifier: "reset-password:ref1", value: "u1", expiresAt: expiresAt() });
    const ia = pair.latchkeyAuth.$context.internalAdapter;
    expect((await ia.findVerificationValue("reset-password:ref1"))?.value).toBe("u1");
    const results = await Promise.all(
      Array.from({ length: 10 }, () => ia.consumeVerificationValue("reset-password:ref1")),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await (await refAdapter()).findVerificationValue("reset-password:ref1")).toBeNull();
  });

  it("a value Latchkey stored is read and consumed by the reference", async () => {
    const expires = expiresAt();
    await pair.latchkeyAuth.$context.internalAdapter.createVerificationValue({
      identifier: "reset-password:own1",
      value: "u2",
      expiresAt: expires,
    });
    const ref = await refAdapter();
    const found = await ref.findVerificationValue("reset-password:own1");
    expect(found).toMatchObject({ identifier: "reset-password:own1", value: "u2" });
    expect(new Date(found!.expiresAt).getTime()).toBe(expires.getTime());
    expect((await ref.consumeVerificationValue("reset-password:own1"))?.value).toBe("u2");
    expect(
      await pair.latchkeyAuth.$context.internalAdapter.findVerificationValue("reset-password:own1"),
    ).toBeNull();
  });
});

describe("rate-limit counters shared through one Redis", () => {
  it("sign-in attempts on both sides count in one <ip>|<path> counter", async () => {
    const limited = await createRedisPair({ rateLimit: { enabled: true } });
    try {
      const headers = { "x-forwarded-for": "198.51.100.23" };
      const attempt = (side: Handler) =>
        side(
          jsonPost("/sign-in/email", { email: "nobody@example.com", password: "wrong-password" }, headers),
        );
      const statuses = [];
      for (const side of [limited.reference, limited.latchkey, limited.reference, limited.latchkey])
        statuses.push((await attempt(side)).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      expect(await limited.redis.get(`${limited.keyPrefix}198.51.100.23|/sign-in/email`)).toBe("4");
      expect((await attempt(limited.reference)).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe("session.storeSessionInDatabase / preserveSessionInDatabase on both sides", () => {
  it("both stores are written; either side falls back to the row when the Redis key is gone", async () => {
    const both = await createRedisPair({ session: { storeSessionInDatabase: true } });
    try {
      const { cookie, token } = await signUp(both.reference, newUser());
      const row = both.db.prepare('SELECT * FROM "session" WHERE "token" = ?').all([token])[0] as {
        id: string;
      };
      expect(((await both.stored(token)) as StoredSession).session.id).toBe(row.id);
      await both.redis.del(`${both.keyPrefix}${token}`);
      expect((await getSession(both.latchkey, { cookie }))?.session.id).toBe(row.id);
      expect((await getSession(both.reference, { cookie }))?.session.id).toBe(row.id);
      await signOut(both.latchkey, cookie);
      expect(both.db.prepare('SELECT * FROM "session" WHERE "token" = ?').all([token])).toEqual([]);
      expect(await getSession(both.reference, { cookie })).toBeNull();
    } finally {
      await both.close();
    }
  });

  it("preserve: a sign-out on either side keeps the row, ended, and neither side revives it", async () => {
    const kept = await createRedisPair({
      session: { storeSessionInDatabase: true, preserveSessionInDatabase: true },
    });
    try {
      for (const [from, to] of [
        [kept.reference, kept.latchkey],
        [kept.latchkey, kept.reference],
      ] as const) {
        const { cookie, token } = await signUp(from, newUser());
        await signOut(to, cookie);
        const rows = kept.db
          .prepare('SELECT "expiresAt" FROM "session" WHERE "token" = ?')
          .all([token]) as Array<{ expiresAt: string }>;
        expect(rows).toHaveLength(1);
        expect(Date.parse(rows[0]!.expiresAt)).toBeLessThanOrEqual(Date.now());
        expect(await getSession(from, { cookie })).toBeNull();
        expect(await getSession(to, { cookie })).toBeNull();
      }
    } finally {
      await kept.close();
    }
  });
});

describe("divergences (DIVERGENCES.md)", () => {
  it("storage-only verification values: Latchkey's carry an id, the reference's none; both read either", async () => {
    const expires = new Date(Date.now() + 60_000);
    await (
      await pair.referenceAuth.$context
    ).internalAdapter.createVerificationValue({ identifier: "div:ref", value: "a", expiresAt: expires });
    await pair.latchkeyAuth.$context.internalAdapter.createVerificationValue({
      identifier: "div:own",
      value: "b",
      expiresAt: expires,
    });
    expect(await pair.stored("verification:div:ref")).not.toHaveProperty("id");
    expect(await pair.stored("verification:div:own")).toHaveProperty(
      "id",
      expect.stringMatching(/^[A-Za-z0-9]{32}$/),
    );
  });

  it("a store without getAndDelete: the reference cannot consume (TypeError), Latchkey falls back", async () => {
    const old = await createRedisPair({}, { atomic: false });
    try {
      const expiresAt = new Date(Date.now() + 60_000);
      const ref = (await old.referenceAuth.$context).internalAdapter;
      const own = old.latchkeyAuth.$context.internalAdapter;
      await ref.createVerificationValue({ identifier: "old:1", value: "v", expiresAt });
      await expect(ref.consumeVerificationValue("old:1")).rejects.toThrow(TypeError);
      expect((await own.consumeVerificationValue("old:1"))?.value).toBe("v");
      expect(await old.stored("verification:old:1")).toBeNull();
    } finally {
      await old.close();
    }
  });

  it("increment on a counter left without an expiry: the reference's never expires, Latchkey's gets the TTL", async () => {
    const reference = referenceRedisStorage(pair.redis, pair.keyPrefix);
    const latchkey = redisStorage({ client: pair.redis, keyPrefix: pair.keyPrefix });
    for (const key of ["persist:ref", "persist:own"]) await pair.redis.set(`${pair.keyPrefix}${key}`, "3");
    expect(await reference.increment("persist:ref", 10)).toBe(4);
    expect(await latchkey.increment("persist:own", 10)).toBe(4);
    expect(await pair.redis.ttl(`${pair.keyPrefix}persist:ref`)).toBe(-1);
    expect(await pair.redis.ttl(`${pair.keyPrefix}persist:own`)).toBeGreaterThan(8);
  });
});
