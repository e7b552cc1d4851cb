import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ratePair, run, summary, type Hit, type RatePair } from "./support/rate-limit-pair.ts";

/**
 * `rateLimit.customRules` keys with wildcards side by side: the reference's glob keeps `*`
 * within one path segment and lets `**` span segments (Latchkey's matched `*` across `/`,
 * so `/x/*` also limited `/x/a/b`). Latchkey now runs the same glob without backtracking.
 */

const times = <T>(n: number, value: T): T[] => Array.from({ length: n }, () => value);

describe("customRules wildcards", () => {
  let pair: RatePair;
  beforeAll(async () => {
    pair = await ratePair({
      rateLimit: {
        customRules: {
          "/one/*": { window: 10, max: 1 },
          "/many/**": { window: 10, max: 1 },
          "/sign-in/*": false,
        },
      },
    });
  });
  afterAll(() => pair.close());

  const cases: Array<[title: string, path: string, pinned: number[]]> = [
    ["`/one/*` limits one segment below", "/one/a", [404, 429]],
    ["`/one/*` leaves two segments below to the default", "/one/a/b", [404, 404]],
    ["`/many/**` limits any depth", "/many/a/b/c", [404, 429]],
  ];
  cases.forEach(([title, path, pinned], i) => {
    it(title, async () => {
      const reference = await run(pair.reference, times(2, { path, ip: `198.18.40.${i + 1}` } satisfies Hit));
      const latchkey = await run(pair.latchkey, times(2, { path, ip: `198.19.40.${i + 1}` } satisfies Hit));
      expect(
        reference.map((c) => c.status),
        "reference",
      ).toEqual(pinned);
      expect(summary(latchkey)).toEqual(summary(reference));
      expect(latchkey).toEqual(reference);
    });
  });

  it("`/sign-in/*: false` lifts the sign-in limit on both", async () => {
    const hit = (ip: string): Hit => ({
      path: "/sign-in/email",
      ip,
      body: { email: "nobody@example.com", password: "wrong-password-1" },
    });
    const reference = await run(pair.reference, times(5, hit("198.18.41.1")));
    const latchkey = await run(pair.latchkey, times(5, hit("198.19.41.1")));
    expect(reference.map((c) => c.status)).toEqual(times(5, 401));
    expect(latchkey).toEqual(reference);
  });
});
