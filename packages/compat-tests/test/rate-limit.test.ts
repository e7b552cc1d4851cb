import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Captured } from "./support/capture.ts";
import {
  hitRequest,
  ratePair,
  run,
  sharedKV,
  summary,
  type Hit,
  type RatePair,
} from "./support/rate-limit-pair.ts";

/**
 * Rate limiting side by side (reference core.md §11.2): the same burst, with rate limiting on
 * and the same rules on both, gives the same statuses, bodies, content types and X-Retry-After.
 * Every scenario uses its own client addresses: the reference's memory counters are one map
 * for the whole module.
 */

const TOO_MANY = {
  status: 429,
  bodyKind: "json",
  body: { message: "Too many requests. Please try again later." },
};
const wrongSignIn = (ip: string): Hit => ({
  path: "/sign-in/email",
  ip,
  body: { email: "nobody@example.com", password: "wrong-password-1" },
});
const times = <T>(n: number, value: T): T[] => Array.from({ length: n }, () => value);

/** The reference's answers, pinned in part, and Latchkey's equal to them in full. */
function expectSame(reference: Captured[], latchkey: Captured[]): void {
  expect(latchkey).toEqual(reference);
  for (const c of reference.filter((r) => r.status === 429)) {
    expect(c).toMatchObject(TOO_MANY);
    expect(c.headers["content-type"]).toBe("text/plain;charset=UTF-8");
  }
}

describe("rate limit: memory storage", () => {
  let pair: RatePair;
  beforeAll(async () => {
    pair = await ratePair({
      rateLimit: {
        customRules: {
          "/ok": { window: 10, max: 3 },
          "/no-*": { window: 60, max: 1 },
          "/get-session": false,
          "/sign-up/*": () => ({ window: 60, max: 1 }),
        },
      },
    });
  });
  afterAll(() => pair.close());
  afterEach(() => vi.useRealTimers());

  it("sign-in: 3 per 10 s, then 429 with X-Retry-After 10", async () => {
    const hits = times(5, wrongSignIn("203.0.113.1"));
    const reference = await run(pair.reference, hits);
    expect(summary(reference)).toEqual([
      [401, null],
      [401, null],
      [401, null],
      [429, "10"],
      [429, "10"],
    ]);
    expectSame(reference, await run(pair.latchkey, hits));
  });

  it("a scripted clock: the window runs from the last allowed request, X-Retry-After counts down", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.now();
    const script: Array<[number, Hit]> = [0, 1, 2, 5, 11.9, 12, 12.5, 13, 22.6].map((s) => [
      s,
      { path: "/ok", ip: "203.0.113.2" },
    ]);
    const play = async (handler: RatePair["reference"]) => {
      const out: Captured[] = [];
      for (const [s, hit] of script) {
        vi.setSystemTime(t0 + s * 1000);
        out.push(...(await run(handler, [hit])));
      }
      return out;
    };
    const reference = await play(pair.reference);
    expect(summary(reference)).toEqual([
      [200, null],
      [200, null],
      [200, null],
      [429, "7"],
      [429, "1"],
      [200, null],
      [200, null],
      [200, null],
      [429, "1"],
    ]);
    expectSame(reference, await play(pair.latchkey));
  });

  it("unknown paths and HEAD requests count; customRules wildcards, false and functions", async () => {
    const hits: Hit[] = [
      ...times(2, { path: "/no-such-route", ip: "203.0.113.3" }),
      ...times(3, { path: "/ok", ip: "203.0.113.3", method: "HEAD" }),
      { path: "/ok", ip: "203.0.113.3" },
      ...times(6, { path: "/get-session", ip: "203.0.113.3" }),
      ...times(2, { path: "/sign-up/email", ip: "203.0.113.3", body: {} }),
    ];
    const reference = await run(pair.reference, hits);
    expect(summary(reference).map(([s]) => s)).toEqual([
      404,
      429,
      404,
      404,
      404,
      429,
      ...times(6, 200),
      400,
      429,
    ]);
    expectSame(reference, await run(pair.latchkey, hits));
  });

  it("one IPv6 /64 is one client; each path and address its own bucket", async () => {
    const hits: Hit[] = [
      ...times(2, { path: "/ok", ip: "2001:db8:77::1" }),
      { path: "/ok", ip: "2001:db8:77::ffff:2" },
      { path: "/ok", ip: "2001:DB8:77:0:1::3" },
      { path: "/ok", ip: "2001:db8:77:1::1" },
      { path: "/ok", ip: "::ffff:203.0.113.4" },
      ...times(3, { path: "/ok", ip: "203.0.113.4" }),
    ];
    const reference = await run(pair.reference, hits);
    expect(summary(reference).map(([s]) => s)).toEqual([200, 200, 200, 429, 200, 200, 200, 200, 429]);
    expectSame(reference, await run(pair.latchkey, hits));
  });

  it("200 parallel requests against the sign-in limit of 3: exactly 3 pass on both", async () => {
    const tally = async (handler: RatePair["reference"], ip: string) => {
      const responses = await Promise.all(
        times(200, 0).map(() => handler(hitRequest({ path: "/sign-in/x", ip }))),
      );
      return responses.filter((r) => r.status !== 429).length;
    };
    // /sign-in/* is 3 per 10 s by default; the parallel burst must not overshoot on either side.
    expect(await tally(pair.reference, "203.0.113.5")).toBe(3);
    expect(await tally(pair.latchkey, "203.0.113.5")).toBe(3);
  });
});

describe("rate limit: database storage (one rateLimit table for both)", () => {
  let pair: RatePair;
  beforeAll(async () => {
    pair = await ratePair({
      rateLimit: { storage: "database", customRules: { "/ok": { window: 60, max: 10 } } },
    });
  });
  afterAll(() => pair.close());
  const rows = () =>
    pair.db.prepare('SELECT "key", "count" FROM "rateLimit" ORDER BY "key"').all([]) as Array<{
      key: string;
      count: number;
    }>;

  it("the same burst gives the same answers", async () => {
    const reference = await run(pair.reference, times(5, wrongSignIn("198.51.100.1")));
    expect(summary(reference).map(([s]) => s)).toEqual([401, 401, 401, 429, 429]);
    expectSame(reference, await run(pair.latchkey, times(5, wrongSignIn("198.51.100.2"))));
    expect(rows()).toEqual([
      { key: "198.51.100.1|/sign-in/email", count: 3 },
      { key: "198.51.100.2|/sign-in/email", count: 3 },
    ]);
  });

  it("a counter one side wrote is continued by the other, both ways", async () => {
    const hit = wrongSignIn("198.51.100.3");
    const statuses = [
      ...(await run(pair.reference, [hit, hit])),
      ...(await run(pair.latchkey, [hit, hit])),
    ].map((c) => c.status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const other = wrongSignIn("198.51.100.4");
    const back = [
      ...(await run(pair.latchkey, [other, other])),
      ...(await run(pair.reference, [other, other])),
    ];
    expect(summary(back)).toEqual([
      [401, null],
      [401, null],
      [401, null],
      [429, "10"],
    ]);
  });

  it("200 parallel requests against a limit of 10: exactly 10 pass on both", async () => {
    for (const [handler, ip] of [
      [pair.reference, "198.51.100.5"],
      [pair.latchkey, "198.51.100.6"],
    ] as const) {
      const responses = await Promise.all(times(200, 0).map(() => handler(hitRequest({ path: "/ok", ip }))));
      expect(responses.filter((r) => r.status === 200)).toHaveLength(10);
    }
    expect(rows().filter((r) => r.key.endsWith("|/ok"))).toEqual([
      { key: "198.51.100.5|/ok", count: 10 },
      { key: "198.51.100.6|/ok", count: 10 },
    ]);
  });
});

describe("rate limit: secondary storage with increment (one store for both)", () => {
  let pair: RatePair;
  const kv = sharedKV();
  beforeAll(async () => {
    pair = await ratePair({
      secondaryStorage: kv.storage,
      rateLimit: { customRules: { "/ok": { window: 30, max: 3 } } },
    });
  });
  afterAll(() => pair.close());

  it("the same key and plain integer counter: each side continues the other's count", async () => {
    const hit: Hit = { path: "/ok", ip: "192.0.2.50" };
    const reference = await run(pair.reference, [hit, hit]);
    expect(kv.value("192.0.2.50|/ok")).toBe("2");
    const latchkey = await run(pair.latchkey, [hit, hit]);
    expect(summary([...reference, ...latchkey])).toEqual([
      [200, null],
      [200, null],
      [200, null],
      [429, "30"],
    ]);
    expect(kv.value("192.0.2.50|/ok")).toBe("4");
    const again = await run(pair.reference, [hit]);
    expect(again).toEqual([latchkey[1]]);
  });
});
