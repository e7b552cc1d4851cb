import { betterAuth } from "better-auth";
import { createAuth, memoryAdapter, type RateLimitRecord } from "@latchkey/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BASE_URL, SECRET } from "./support/instances.ts";
import {
  hitRequest,
  ratePair,
  run,
  sharedKV,
  summary,
  type Hit,
  type RatePair,
} from "./support/rate-limit-pair.ts";
import { openSqlite, tempDatabaseFile } from "./support/sqlite.ts";

/**
 * Rate-limit differences from the reference (DIVERGENCES.md, rows 23-28). Each test asserts
 * both sides' behaviour. Where the reference fails, its rate limiter throws inside the
 * router's onRequest, outside better-call's error handling: `auth.handler` rejects, and the
 * HTTP server in front of it answers 500.
 */

const pairs: RatePair[] = [];
afterEach(() => {
  for (const pair of pairs.splice(0)) pair.close();
  vi.restoreAllMocks();
});
const make = async (...args: Parameters<typeof ratePair>): Promise<RatePair> => {
  const pair = await ratePair(...args);
  pairs.push(pair);
  return pair;
};
const ok = (ip: string): Hit => ({ path: "/ok", ip });

describe("secondary storage (spec, Limits: rate limiting)", () => {
  it("a counter left in the 1.0 JSON format: the reference fails on it until it expires, Latchkey replaces it once", async () => {
    const kv = sharedKV();
    const pair = await make({
      secondaryStorage: kv.storage,
      rateLimit: { customRules: { "/ok": { window: 30, max: 2 } } },
    });
    const key = "192.0.2.60|/ok";
    const legacy = JSON.stringify({ key, count: 1, lastRequest: Date.now() });
    await kv.put(key, legacy, 30);
    await expect(pair.reference(hitRequest(ok("192.0.2.60")))).rejects.toThrow("ERR value is not an integer");
    expect(kv.value(key)).toBe(legacy);
    expect(summary(await run(pair.latchkey, [ok("192.0.2.60"), ok("192.0.2.60"), ok("192.0.2.60")]))).toEqual(
      [
        [200, null],
        [200, null],
        [429, "30"],
      ],
    );
    expect(kv.value(key)).toBe("3");
    // Once replaced, the reference reads the same plain counter.
    expect(summary(await run(pair.reference, [ok("192.0.2.60")]))).toEqual([[429, "30"]]);
  });

  it("a store without increment: the reference refuses every request, Latchkey limits on the older path with one warning", async () => {
    const kv = sharedKV({ increment: false });
    const pair = await make({
      secondaryStorage: kv.storage,
      rateLimit: { customRules: { "/ok": { window: 30, max: 2 } } },
    });
    await expect(pair.reference(hitRequest(ok("192.0.2.61")))).rejects.toThrow(
      "Secondary-storage rate limiting requires SecondaryStorage.increment.",
    );
    const hits = [ok("192.0.2.61"), ok("192.0.2.61"), ok("192.0.2.61")];
    expect(summary(await run(pair.latchkey, hits)).map(([s]) => s)).toEqual([200, 200, 429]);
    expect(JSON.parse(kv.value("192.0.2.61|/ok")!)).toMatchObject({ key: "192.0.2.61|/ok", count: 2 });
    expect(
      pair.latchkeyLogs.filter((l) => l.startsWith("warn") && l.includes("increment(key, ttl)")),
    ).toHaveLength(1);
  });
});

describe("custom storage (spec, Limits: custom rate-limit storage)", () => {
  it("get/set storage: the reference calls consume and fails, Latchkey runs the window algorithm over it", async () => {
    const records = new Map<string, RateLimitRecord>();
    const customStorage = {
      get: async (key: string) => records.get(key),
      set: async (key: string, value: RateLimitRecord) => void records.set(key, value),
    };
    const pair = await make({ rateLimit: { customStorage, customRules: { "/ok": { window: 30, max: 2 } } } });
    await expect(pair.reference(hitRequest(ok("192.0.2.62")))).rejects.toThrow(/consume is not a function/);
    expect(
      summary(await run(pair.latchkey, [ok("192.0.2.62"), ok("192.0.2.62"), ok("192.0.2.62")])).map(
        ([s]) => s,
      ),
    ).toEqual([200, 200, 429]);
    expect(records.get("192.0.2.62|/ok")).toMatchObject({ count: 2 });
  });
});

describe("start-up checks", () => {
  it("an invalid trustedProxies entry: the reference warns and ignores it, Latchkey refuses to start", async () => {
    const { file, remove } = tempDatabaseFile();
    const warnings: string[] = [];
    const options = {
      secret: SECRET,
      baseURL: BASE_URL,
      advanced: { ipAddress: { trustedProxies: ["10.0.0.0/8", "10.0.0.0/99"] } },
    };
    const reference = betterAuth({
      ...options,
      database: openSqlite(file),
      logger: { level: "warn", log: (_level, message) => void warnings.push(message) },
    });
    // The reference builds its context (and checks the entries) on first use.
    await reference.$context;
    expect(warnings.some((w) => w.includes("10.0.0.0/99"))).toBe(true);
    expect(() => createAuth({ ...options, database: memoryAdapter() })).toThrow(
      /10\.0\.0\.0\/99.*not an IP address or CIDR range/,
    );
    remove();
  });

  it('storage "secondary-storage" without secondaryStorage: the reference fails each request, Latchkey refuses to start', async () => {
    const { file, remove } = tempDatabaseFile();
    const options = {
      secret: SECRET,
      baseURL: BASE_URL,
      rateLimit: { enabled: true, storage: "secondary-storage" as const },
    };
    const db = openSqlite(file);
    const reference = betterAuth({
      ...options,
      database: db,
      logger: { disabled: true },
      advanced: { database: { validateSchema: false } },
    } as Parameters<typeof betterAuth>[0]);
    await expect(reference.handler(new Request(`${BASE_URL}/api/auth/ok`))).rejects.toThrow(
      "requires SecondaryStorage.increment",
    );
    expect(() => createAuth({ ...options, database: memoryAdapter() })).toThrow(
      /needs the `secondaryStorage` option/,
    );
    db.close();
    remove();
  });

  it("a negative window: the reference never limits, Latchkey refuses to start", async () => {
    const pair = await make({ rateLimit: { customRules: { "/ok": { window: 1, max: 1 } } } });
    const hit = ok("192.0.2.64");
    expect(summary(await run(pair.latchkey, [hit, hit])).map(([s]) => s)).toEqual([200, 429]);
    const { file, remove } = tempDatabaseFile();
    const db = openSqlite(file);
    const negative = {
      secret: SECRET,
      baseURL: BASE_URL,
      rateLimit: { enabled: true, customRules: { "/ok": { window: -1, max: 1 } } },
    };
    const reference = betterAuth({
      ...negative,
      database: db,
      logger: { disabled: true },
      advanced: { database: { validateSchema: false } },
    } as Parameters<typeof betterAuth>[0]);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await reference.handler(hitRequest(ok("192.0.2.65")))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(() => createAuth({ ...negative, database: memoryAdapter() })).toThrow(
      /must be a number of at least 0/,
    );
    db.close();
    remove();
  });
});

describe("memory counters", () => {
  it("the reference shares one map between all instances in a process, Latchkey keeps one per instance", async () => {
    const setup = { rateLimit: { customRules: { "/ok": { window: 60, max: 1 } } } };
    const [a, b] = [await make(setup), await make(setup)];
    const hit = ok("192.0.2.63");
    expect(
      summary([...(await run(a.reference, [hit])), ...(await run(b.reference, [hit]))]).map(([s]) => s),
    ).toEqual([200, 429]);
    expect(
      summary([...(await run(a.latchkey, [hit])), ...(await run(b.latchkey, [hit]))]).map(([s]) => s),
    ).toEqual([200, 200]);
  });
});
