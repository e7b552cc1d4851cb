import { afterAll, describe, expect, it } from "vitest";
import { createAuth, memoryAdapter, type LatchkeyOptions } from "@latchkey/core";
import { redisStorage } from "../src/index.ts";
import { testRedis } from "./support/redis.ts";

/**
 * Rate limiting on a real Redis (`storage: "secondary-storage"`, the default with a
 * secondaryStorage), through auth.handler. Each request is one atomic INCR (spec, Limits).
 */

const redis = testRedis();
afterAll(() => redis.cleanup());

const BASE = "http://localhost:3000";

/** Nodes on one Redis prefix with rate limiting on; `/ok` allows 10 per 60 s. */
function nodes(count: number, extra: Partial<LatchkeyOptions> = {}) {
  const keyPrefix = redis.prefix("rate-limit");
  const make = () =>
    createAuth({
      database: memoryAdapter(),
      secondaryStorage: redisStorage({ client: redis.client, keyPrefix }),
      secret: "redis-rate-limit-test-secret-0123456789abcdef",
      baseURL: BASE,
      logger: { disabled: true },
      ...extra,
      rateLimit: { enabled: true, customRules: { "/ok": { window: 60, max: 10 } }, ...extra.rateLimit },
    });
  const auths = Array.from({ length: count }, make);
  const send = (i: number, ip: string) =>
    auths[i % count]!.handler(new Request(`${BASE}/api/auth/ok`, { headers: { "x-forwarded-for": ip } }));
  return { send, key: (k: string) => `${keyPrefix}${k}` };
}

describe("rate limit on Redis", () => {
  it("200 parallel requests against a limit of 10 let exactly 10 through", async () => {
    const { send, key } = nodes(1);
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => send(i, "203.0.113.7")));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(10);
    const refused = responses.filter((r) => r.status === 429);
    expect(refused).toHaveLength(190);
    expect(refused[0]!.headers.get("x-retry-after")).toBe("60");
    // The reference's key and a plain integer counter whose TTL is the window.
    expect(await redis.client.get(key("203.0.113.7|/ok"))).toBe("200");
    const ttl = await redis.client.ttl(key("203.0.113.7|/ok"));
    expect(ttl).toBeGreaterThan(55);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it("the same across four nodes sharing the Redis", async () => {
    const { send } = nodes(4);
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => send(i, "198.51.100.7")));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(10);
  });

  it("a counter left in the 1.0 JSON format is replaced on its next request and restarts that window once", async () => {
    const { send, key } = nodes(1);
    const stored = key("192.0.2.9|/ok");
    await redis.client.set(
      stored,
      JSON.stringify({ key: "192.0.2.9|/ok", count: 50, lastRequest: Date.now() }),
      "EX",
      60,
    );
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await send(0, "192.0.2.9")).status);
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429]);
    expect(await redis.client.get(stored)).toBe("11");
    expect(await redis.client.ttl(stored)).toBeGreaterThan(55);
  });

  it("a parallel burst onto a 1.0 JSON counter still lets at most a window's worth through", async () => {
    const { send, key } = nodes(1);
    await redis.client.set(
      key("192.0.2.10|/ok"),
      JSON.stringify({ key: "192.0.2.10|/ok", count: 3, lastRequest: 1 }),
      "EX",
      60,
    );
    const responses = await Promise.all(Array.from({ length: 100 }, (_, i) => send(i, "192.0.2.10")));
    const allowed = responses.filter((r) => r.status === 200).length;
    expect(responses.filter((r) => r.status !== 200 && r.status !== 429)).toEqual([]);
    // Racing replacements may each restart the count once; they never lift the limit.
    expect(allowed).toBeGreaterThanOrEqual(10);
    expect(allowed).toBeLessThan(30);
  });
});
