import { describe, expect, it } from "vitest";
import type { LatchkeyOptions } from "../../src/index.ts";
import { limitedInstance } from "./instance.ts";
import { redisLikeStorage } from "./kv.ts";

/**
 * Security: each request is decided in one atomic step (spec, Limits), so a burst of parallel
 * requests cannot all pass a stale read. 200 at once against a limit of 10: exactly 10 pass.
 */
async function burst(options: Partial<LatchkeyOptions>): Promise<Record<number, number>> {
  const { send } = limitedInstance({
    ...options,
    rateLimit: { ...options.rateLimit, customRules: { "/ok": { window: 60, max: 10 } } },
  });
  const responses = await Promise.all(Array.from({ length: 200 }, () => send("/ok")));
  const tally: Record<number, number> = {};
  for (const res of responses) tally[res.status] = (tally[res.status] ?? 0) + 1;
  return tally;
}

describe("200 parallel requests against a limit of 10", () => {
  it("memory storage lets exactly 10 through", async () => {
    expect(await burst({})).toEqual({ 200: 10, 429: 190 });
  });

  it("database storage (memory adapter) lets exactly 10 through", async () => {
    expect(await burst({ rateLimit: { storage: "database" } })).toEqual({ 200: 10, 429: 190 });
  });

  it("secondary storage with increment lets exactly 10 through", async () => {
    expect(await burst({ secondaryStorage: redisLikeStorage().storage })).toEqual({ 200: 10, 429: 190 });
  });

  it("secondary storage: a parallel burst onto a counter left in the 1.0 JSON format errs on no request", async () => {
    const kv = redisLikeStorage();
    kv.put(
      "203.0.113.7|/ok",
      JSON.stringify({ key: "203.0.113.7|/ok", count: 99, lastRequest: Date.now() }),
      60,
    );
    const tally = await burst({ secondaryStorage: kv.storage });
    // Racing replacements can each restart the count once (spec: "restarts that window once").
    expect(Object.keys(tally).sort()).toEqual(["200", "429"]);
    expect(tally[200]).toBeGreaterThanOrEqual(10);
    expect(tally[200]).toBeLessThan(20);
  });
});
