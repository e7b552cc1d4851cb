// Issue 5 §3: a rate limit of L across both nodes lets exactly L through under 200 concurrent
// requests split between them.
import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cluster, LIMIT, WINDOW, type ClusterName } from "./support/clusters.ts";
import type { NodeAddress } from "./support/node-process.ts";

const REQUESTS = 200;
const TOO_MANY = { message: "Too many requests. Please try again later." };

/** A client address of its own for each burst (the nodes trust `x-forwarded-for`). */
const clientIP = (): string => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

interface Outcome {
  node: string;
  status: number;
  retryAfter: string | null;
  body: string;
}

/** `GET /get-session` (no cookie: the cheapest limited route) from `ip` to `node`. */
async function hit(node: NodeAddress, ip: string): Promise<Outcome> {
  const res = await fetch(`${node.origin}/api/auth/get-session`, { headers: { "x-forwarded-for": ip } });
  return {
    node: node.name,
    status: res.status,
    retryAfter: res.headers.get("x-retry-after"),
    body: await res.text(),
  };
}

/** Fires `REQUESTS` requests at once, alternating between the nodes, and waits for every answer. */
function burst(nodes: NodeAddress[], ip: string): Promise<Outcome[]> {
  return Promise.all(Array.from({ length: REQUESTS }, (_, i) => hit(nodes[i % nodes.length]!, ip)));
}

const passedOn = (outcomes: Outcome[], node?: string): number =>
  outcomes.filter((o) => o.status !== 429 && (node === undefined || o.node === node)).length;

const SHARED = [
  ["secondary-storage", "rate-limit-secondary-storage"],
  ["database", "rate-limit-database"],
] as const satisfies ReadonlyArray<readonly [string, ClusterName]>;

describe.each(SHARED)(
  `a limit of ${LIMIT} per ${WINDOW} s across two nodes, rateLimit.storage "%s"`,
  (_storage, name) => {
    it(`${REQUESTS} concurrent requests from one client, ${REQUESTS / 2} to each node, let exactly ${LIMIT} through`, async () => {
      const { a, b } = cluster(name);
      const ip = clientIP();
      const outcomes = await burst([a, b], ip);
      expect(outcomes.filter((o) => o.node === "A")).toHaveLength(REQUESTS / 2);
      const summary = `A let ${passedOn(outcomes, "A")} through, B ${passedOn(outcomes, "B")}`;
      expect(passedOn(outcomes), summary).toBe(LIMIT);
      for (const o of outcomes.filter((o) => o.status !== 429)) {
        expect(o.status).toBe(200);
        expect(o.body).toBe("null");
      }
      for (const o of outcomes.filter((o) => o.status === 429)) {
        expect(JSON.parse(o.body)).toEqual(TOO_MANY);
        expect(Number(o.retryAfter)).toBeGreaterThan(0);
        expect(Number(o.retryAfter)).toBeLessThanOrEqual(WINDOW);
      }
      // The spent budget is the client's on both nodes, and only that client's.
      expect((await hit(a, ip)).status).toBe(429);
      expect((await hit(b, ip)).status).toBe(429);
      const other = clientIP();
      expect((await hit(b, other)).status).toBe(200);
      expect((await hit(a, other)).status).toBe(200);
    });
  },
);

// The control: node-local counters would let each node's own budget through. The same burst
// must show it, or the test above could not tell shared counters from separate ones.
describe(`control: rateLimit.storage "memory" counts per node`, () => {
  it(`the same burst lets ${LIMIT} through on each node, ${2 * LIMIT} in total`, async () => {
    const { a, b } = cluster("rate-limit-memory");
    const outcomes = await burst([a, b], clientIP());
    expect(passedOn(outcomes, "A")).toBe(LIMIT);
    expect(passedOn(outcomes, "B")).toBe(LIMIT);
  });
});
