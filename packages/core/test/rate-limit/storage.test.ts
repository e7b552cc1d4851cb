import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createAuth,
  memoryAdapter,
  type LatchkeyOptions,
  type RateLimitRecord,
  type RateLimitRule,
  type SecondaryStorage,
} from "../../src/index.ts";
import { BASE, CLIENT_IP, limitedInstance, SECRET, times } from "./instance.ts";
import { redisLikeStorage } from "./kv.ts";

afterEach(() => vi.useRealTimers());

const KEY = `${CLIENT_IP}|/ok`;
const T0 = 1_700_000_000_000;
const okRule = (window: number, max: number): LatchkeyOptions["rateLimit"] => ({
  customRules: { "/ok": { window, max } },
});

describe("secondary storage with increment (the default when secondaryStorage is set)", () => {
  it("one increment(key, window) per request; a plain integer; allowed while ≤ max", async () => {
    const kv = redisLikeStorage();
    const { statuses, send } = limitedInstance({ secondaryStorage: kv.storage, rateLimit: okRule(30, 2) });
    expect(await statuses(2, "/ok")).toEqual([200, 200]);
    expect(kv.value(KEY)).toBe("2");
    expect(kv.ttl(KEY)).toBe(30);
    const refused = await send("/ok");
    expect(refused.status).toBe(429);
    // The reference asks for a full window here: the store cannot tell when the window began.
    expect(refused.headers.get("x-retry-after")).toBe("30");
    expect(kv.calls.filter((c) => c.includes("|/ok"))).toEqual(times(3, `increment ${KEY} 30`));
  });

  it("is a fixed window from the first request: the TTL is not extended", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const kv = redisLikeStorage();
    const { statuses } = limitedInstance({ secondaryStorage: kv.storage, rateLimit: okRule(30, 2) });
    expect(await statuses(1, "/ok")).toEqual([200]);
    vi.setSystemTime(T0 + 20_000);
    expect(await statuses(2, "/ok")).toEqual([200, 429]);
    vi.setSystemTime(T0 + 30_000);
    expect(await statuses(3, "/ok")).toEqual([200, 200, 429]);
  });

  it("a counter left in the 1.0 JSON format is replaced on its next request, restarting that window once", async () => {
    const kv = redisLikeStorage();
    kv.put(KEY, JSON.stringify({ key: KEY, count: 50, lastRequest: Date.now() }), 30);
    const { statuses, logs } = limitedInstance({ secondaryStorage: kv.storage, rateLimit: okRule(30, 2) });
    expect(await statuses(3, "/ok")).toEqual([200, 200, 429]);
    expect(kv.value(KEY)).toBe("3");
    expect(kv.ttl(KEY)).toBe(30);
    expect(kv.calls.filter((c) => c.startsWith("delete"))).toEqual([`delete ${KEY}`]);
    expect(logs.filter((l) => l.message.includes("1.0 JSON format"))).toHaveLength(1);
  });

  it("the same for a store that answers NaN instead of an error, or hands back parsed JSON", async () => {
    const json = new Map<string, unknown>([[KEY, { key: KEY, count: 9, lastRequest: 1 }]]);
    const storage: SecondaryStorage = {
      get: (key) => json.get(key) ?? null,
      set: (key, value) => void json.set(key, value),
      delete: (key) => void json.delete(key),
      increment: (key) => {
        const current = json.get(key);
        const next = (current === undefined ? 0 : Number(current)) + 1;
        if (!Number.isNaN(next)) json.set(key, next);
        return next;
      },
    };
    const { statuses } = limitedInstance({ secondaryStorage: storage, rateLimit: okRule(30, 2) });
    expect(await statuses(3, "/ok")).toEqual([200, 200, 429]);
    expect(json.get(KEY)).toBe(3);
  });

  it("a failing increment on an integer counter is not mistaken for the old format: 500", async () => {
    const kv = redisLikeStorage();
    kv.put(KEY, "1", 30);
    const storage: SecondaryStorage = {
      ...kv.storage,
      increment: async () => {
        throw new Error("connection lost");
      },
    };
    const { send, logs } = limitedInstance({ secondaryStorage: storage, rateLimit: okRule(30, 2) });
    expect((await send("/ok")).status).toBe(500);
    expect(kv.value(KEY)).toBe("1");
    expect(logs.some((l) => l.level === "error")).toBe(true);
  });
});

describe("secondary storage without increment: the older get/set path", () => {
  it("works with one warning, storing the 1.x JSON record with the window as TTL", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const kv = redisLikeStorage({ increment: false });
    const { statuses, send, logs } = limitedInstance({
      secondaryStorage: kv.storage,
      rateLimit: okRule(30, 2),
    });
    expect(await statuses(2, "/ok")).toEqual([200, 200]);
    expect(JSON.parse(kv.value(KEY)!)).toEqual({ key: KEY, count: 2, lastRequest: T0 });
    expect(kv.ttl(KEY)).toBe(30);
    vi.setSystemTime(T0 + 10_000);
    const refused = await send("/ok");
    expect([refused.status, refused.headers.get("x-retry-after")]).toEqual([429, "20"]);
    expect(await statuses(5, "/get-session")).toEqual(times(5, 200));
    expect(logs.filter((l) => l.level === "warn" && l.message.includes("increment(key, ttl)"))).toHaveLength(
      1,
    );
  });

  it("a 1.x record already in the store keeps counting", async () => {
    const kv = redisLikeStorage({ increment: false });
    kv.put(KEY, JSON.stringify({ key: KEY, count: 2, lastRequest: Date.now() }), 30);
    const { statuses } = limitedInstance({ secondaryStorage: kv.storage, rateLimit: okRule(30, 2) });
    expect(await statuses(1, "/ok")).toEqual([429]);
  });
});

describe("database storage", () => {
  it("writes the reference's rateLimit rows (id, key, count, lastRequest in ms)", async () => {
    const { store, statuses, auth } = limitedInstance({ rateLimit: { storage: "database" } });
    expect(auth.$context.schema.rateLimit?.tableName).toBe("rateLimit");
    const before = Date.now();
    await statuses(2, "/ok");
    const [row, ...rest] = store.rateLimit!;
    expect(rest).toEqual([]);
    expect(row!.id).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(row!.key).toBe(KEY);
    expect(row!.count).toBe(2);
    expect(row!.lastRequest).toBeGreaterThanOrEqual(before);
  });

  it("honours modelName and fields", async () => {
    const { store, statuses } = limitedInstance({
      rateLimit: { storage: "database", modelName: "rate_limits", fields: { lastRequest: "last_request" } },
    });
    await statuses(1, "/ok");
    expect(store.rateLimit).toBeUndefined();
    expect(store.rate_limits?.[0]).toMatchObject({ key: KEY, count: 1, last_request: expect.any(Number) });
  });

  it("continues a counter the reference wrote", async () => {
    const { store, send } = limitedInstance({ rateLimit: { storage: "database" } });
    store.rateLimit = [
      { id: "r".repeat(32), key: `${CLIENT_IP}|/sign-in/email`, count: 3, lastRequest: Date.now() - 4000 },
    ];
    const res = await send("/sign-in/email", { method: "POST", body: "{}" });
    expect([res.status, res.headers.get("x-retry-after")]).toEqual([429, "6"]);
  });

  it("no rateLimit table without database storage", () => {
    expect(limitedInstance().auth.$context.schema.rateLimit).toBeUndefined();
  });
});

describe("custom storage", () => {
  it("consume(key, rule) decides; a null retryAfter becomes the rule's window", async () => {
    const seen: Array<[string, RateLimitRule]> = [];
    const answers = [
      { allowed: true, retryAfter: null },
      { allowed: false, retryAfter: 42 },
      { allowed: false, retryAfter: null },
    ];
    const { send } = limitedInstance({
      rateLimit: {
        storage: "database",
        customStorage: { consume: async (key, rule) => (seen.push([key, rule]), answers.shift()!) },
      },
    });
    const got = [];
    for (let i = 0; i < 3; i++) {
      const res = await send("/sign-up/email", { method: "POST", body: "{}" });
      got.push([res.status, res.headers.get("x-retry-after")]);
    }
    expect(got).toEqual([
      [400, null],
      [429, "42"],
      [429, "10"],
    ]);
    expect(seen).toEqual(times(3, [`${CLIENT_IP}|/sign-up/email`, { window: 10, max: 3 }]));
  });

  it("get/set (the older shape) runs the window algorithm over the records it stores", async () => {
    const records = new Map<string, RateLimitRecord>();
    const updates: boolean[] = [];
    const { statuses } = limitedInstance({
      rateLimit: {
        ...okRule(60, 2),
        customStorage: {
          get: async (key) => records.get(key),
          set: async (key, value, update) => void (records.set(key, value), updates.push(!!update)),
        },
      },
    });
    expect(await statuses(3, "/ok")).toEqual([200, 200, 429]);
    expect(records.get(KEY)).toMatchObject({ key: KEY, count: 2 });
    expect(updates).toEqual([false, true]);
  });
});

describe("misconfiguration is a TypeError at createAuth, even while disabled", () => {
  const make = (rateLimit: LatchkeyOptions["rateLimit"]) => () =>
    createAuth({
      database: memoryAdapter(),
      secret: SECRET,
      baseURL: BASE,
      rateLimit: { enabled: false, ...rateLimit },
    });
  const bad: Array<[string, LatchkeyOptions["rateLimit"]]> = [
    ["a negative window", { window: -1 }],
    ["a max that is not a number", { max: Number.NaN }],
    ["a custom rule with a negative max", { customRules: { "/x": { window: 1, max: -3 } } }],
    ["an unknown storage", { storage: "redis" as "memory" }],
    ["secondary-storage without secondaryStorage", { storage: "secondary-storage" }],
    ["a customStorage with neither consume nor get/set", { customStorage: {} as never }],
  ];
  it.each(bad)("%s", (_name, rateLimit) => {
    expect(make(rateLimit)).toThrow(TypeError);
  });
});
