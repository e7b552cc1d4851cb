import { afterAll, describe, expect, it } from "vitest";
import type { Redis } from "ioredis";
import { randomUUID } from "node:crypto";
import { redisStorage } from "../src/index.ts";
import { scriptRunner } from "../src/scripts.ts";
import { testRedis } from "./support/redis.ts";

const redis = testRedis();
afterAll(() => redis.cleanup());
const fresh = (label?: string) => {
  const keyPrefix = redis.prefix(label);
  return { keyPrefix, storage: redisStorage({ client: redis.client, keyPrefix }) };
};

describe("keys and values (same as @better-auth/redis-storage)", () => {
  it("get / set / delete under the prefix", async () => {
    const { keyPrefix, storage } = fresh();
    expect(await storage.get("a")).toBeNull();
    await storage.set("a", '{"x":1}');
    expect(await redis.client.get(`${keyPrefix}a`)).toBe('{"x":1}');
    expect(await storage.get("a")).toBe('{"x":1}');
    await storage.delete("a");
    expect(await redis.client.exists(`${keyPrefix}a`)).toBe(0);
  });

  it('defaults the prefix to "better-auth:"', async () => {
    const key = redis.prefix("default-prefix").replace(/:$/, "");
    const storage = redisStorage({ client: redis.client });
    await storage.set(key, "v", 30);
    expect(await redis.client.get(`better-auth:${key}`)).toBe("v");
    await storage.delete(key);
    expect(await redis.client.exists(`better-auth:${key}`)).toBe(0);
  });

  it("set: a TTL in seconds; none or 0 keeps the key, as the reference; fractions round up", async () => {
    const { keyPrefix, storage } = fresh();
    await storage.set("ttl", "v", 120);
    expect(await redis.client.ttl(`${keyPrefix}ttl`)).toBeGreaterThan(118);
    await storage.set("none", "v");
    await storage.set("zero", "v", 0);
    expect(await redis.client.ttl(`${keyPrefix}none`)).toBe(-1);
    expect(await redis.client.ttl(`${keyPrefix}zero`)).toBe(-1);
    await storage.set("frac", "v", 0.2);
    expect(await redis.client.ttl(`${keyPrefix}frac`)).toBe(1);
  });

  it("listKeys and clear stay inside a prefix, even one holding glob characters", async () => {
    const keyPrefix = `${redis.prefix("glob")}*[x]?:`;
    const storage = redisStorage({ client: redis.client, keyPrefix });
    const neighbour = fresh("neighbour");
    const base = keyPrefix.slice(0, keyPrefix.indexOf("*"));
    await redis.client.set(`${base}other`, "must survive", "EX", 60);
    for (let i = 0; i < 250; i++) await storage.set(`k${i}`, "v", 60);
    await neighbour.storage.set("n", "v", 60);
    expect((await storage.listKeys()).sort()).toEqual(Array.from({ length: 250 }, (_, i) => `k${i}`).sort());
    await storage.clear();
    expect(await storage.listKeys()).toEqual([]);
    expect(await redis.client.get(`${base}other`)).toBe("must survive");
    expect(await neighbour.storage.get("n")).toBe("v");
    await redis.client.del(`${base}other`);
  });

  it("methods work unbound (the reference's rate limiter calls `increment` off the object)", async () => {
    const { storage } = fresh();
    const { increment, set, get } = storage;
    await set("u", "1", 10);
    expect(await get("u")).toBe("1");
    expect(await increment("n", 10)).toBe(1);
  });
});

describe("increment(key, ttl): atomic, TTL only at creation", () => {
  it("200 concurrent increments reach exactly 200, each value handed out once", async () => {
    const { keyPrefix, storage } = fresh();
    const results = await Promise.all(Array.from({ length: 200 }, () => storage.increment("counter", 60)));
    expect(results.sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(await redis.client.get(`${keyPrefix}counter`)).toBe("200");
  });

  it("sets the TTL once: later increments never extend it", async () => {
    const { keyPrefix, storage } = fresh();
    expect(await storage.increment("window", 100)).toBe(1);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await storage.increment("window", 1000)).toBe(2);
    const ttl = await redis.client.ttl(`${keyPrefix}window`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(99);
  });

  it("gives a counter that has no expiry one (EXPIRE NX semantics), so it cannot live forever", async () => {
    const { keyPrefix, storage } = fresh();
    await redis.client.set(`${keyPrefix}persisted`, "4");
    expect(await storage.increment("persisted", 30)).toBe(5);
    expect(await redis.client.ttl(`${keyPrefix}persisted`)).toBeGreaterThan(28);
  });

  it("fails like INCR on a value that is not an integer, and refuses a bad ttl", async () => {
    const { storage } = fresh();
    await storage.set("json", JSON.stringify({ key: "k", count: 1, lastRequest: 1 }), 60);
    await expect(storage.increment("json", 10)).rejects.toThrow(/not an integer/);
    for (const ttl of [0, -1, 1.5, Number.NaN])
      await expect(storage.increment("x", ttl)).rejects.toThrow(TypeError);
  });

  it("sends the script body when the server does not have it cached (NOSCRIPT), then uses EVALSHA", async () => {
    // A script body no server has seen, so the first EVALSHA is answered NOSCRIPT.
    const run = scriptRunner(redis.client, `return redis.call("INCR", KEYS[1]) -- ${randomUUID()}`);
    const { keyPrefix } = fresh();
    expect(await run(`${keyPrefix}s`)).toBe(1);
    expect(await run(`${keyPrefix}s`)).toBe(2);
  });
});

describe("getAndDelete(key): one winner", () => {
  it("of 50 concurrent callers exactly one gets the value (GETDEL)", async () => {
    const { keyPrefix, storage } = fresh();
    await storage.set("once", "secret-value", 60);
    const results = await Promise.all(Array.from({ length: 50 }, () => storage.getAndDelete("once")));
    expect(results.filter((r) => r !== null)).toEqual(["secret-value"]);
    expect(await redis.client.exists(`${keyPrefix}once`)).toBe(0);
    expect(await storage.getAndDelete("missing")).toBeNull();
  });

  it("falls back to a Lua GET+DEL on a server without GETDEL (before Redis 6.2), still one winner", async () => {
    // Only the server's answer is simulated: GETDEL refused as an unknown command.
    const old = new Proxy(redis.client, {
      get(target, property, receiver) {
        if (property === "getdel")
          return async () => Promise.reject(new Error("ERR unknown command 'getdel'"));
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }) as Redis;
    const keyPrefix = redis.prefix("old-server");
    const storage = redisStorage({ client: old, keyPrefix });
    await storage.set("once", "v", 60);
    const results = await Promise.all(Array.from({ length: 30 }, () => storage.getAndDelete("once")));
    expect(results.filter((r) => r !== null)).toEqual(["v"]);
    expect(await redis.client.exists(`${keyPrefix}once`)).toBe(0);
  });
});
