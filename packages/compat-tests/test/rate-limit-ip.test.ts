import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { url } from "./support/instances.ts";
import { ratePair, type RatePair, type RateLimitSetup } from "./support/rate-limit-pair.ts";

/**
 * The client address each side resolves (reference core.md §11.4), read from the rate-limit
 * key `<ip>|<path>` each writes to the shared `rateLimit` table. vitest runs with
 * NODE_ENV=test, where both fall back to 127.0.0.1 when no address can be believed.
 */

type Case = [name: string, headers: Record<string, string>, referenceKey: string];

async function keyOf(
  pair: RatePair,
  side: "reference" | "latchkey",
  headers: Record<string, string>,
): Promise<string[]> {
  pair.db.exec('DELETE FROM "rateLimit"');
  await pair[side](new Request(url("/ok"), { headers }));
  return (pair.db.prepare('SELECT "key" FROM "rateLimit"').all([]) as Array<{ key: string }>).map(
    (r) => r.key,
  );
}

function compareResolution(title: string, setup: RateLimitSetup, cases: Case[]): void {
  describe(title, () => {
    let pair: RatePair;
    beforeAll(async () => {
      pair = await ratePair({ ...setup, rateLimit: { storage: "database" } });
    });
    afterAll(() => pair.close());

    it.each(cases)("%s", async (_name, headers, referenceKey) => {
      const reference = await keyOf(pair, "reference", headers);
      expect(reference).toEqual([referenceKey]);
      expect(await keyOf(pair, "latchkey", headers)).toEqual(reference);
    });
  });
}

const V6 = "2001:0db8:0000:0000:0000:0000:0000:0000";

compareResolution("client address: defaults (x-forwarded-for, single address, /64)", {}, [
  ["IPv4", { "x-forwarded-for": "203.0.113.7" }, "203.0.113.7|/ok"],
  ["IPv4 with spaces and a trailing comma", { "x-forwarded-for": " 203.0.113.7, " }, "203.0.113.7|/ok"],
  ["IPv6, upper case, compressed", { "x-forwarded-for": "2001:DB8::1" }, `${V6}|/ok`],
  ["IPv6 full form", { "x-forwarded-for": "2001:db8:0:0:1:2:3:4" }, `${V6}|/ok`],
  ["IPv4-mapped IPv6", { "x-forwarded-for": "::ffff:192.0.2.1" }, "192.0.2.1|/ok"],
  ["IPv4-mapped IPv6 in hex", { "x-forwarded-for": "::ffff:c000:0201" }, "192.0.2.1|/ok"],
  ["loopback ::1", { "x-forwarded-for": "::1" }, "0000:0000:0000:0000:0000:0000:0000:0000|/ok"],
  ["a chain without trusted proxies", { "x-forwarded-for": "198.51.100.1, 203.0.113.7" }, "127.0.0.1|/ok"],
  ["brackets", { "x-forwarded-for": "[2001:db8::1]" }, "127.0.0.1|/ok"],
  ["a zone id", { "x-forwarded-for": "fe80::1%eth0" }, "127.0.0.1|/ok"],
  ["a port", { "x-forwarded-for": "203.0.113.7:443" }, "127.0.0.1|/ok"],
  ["leading zeros", { "x-forwarded-for": "01.2.3.4" }, "127.0.0.1|/ok"],
  ["no header", {}, "127.0.0.1|/ok"],
  ["another header is not read", { "x-real-ip": "203.0.113.7" }, "127.0.0.1|/ok"],
]);

compareResolution(
  "client address: trustedProxies and custom ipAddressHeaders",
  {
    advanced: {
      ipAddress: {
        ipAddressHeaders: ["x-client-ip", "x-forwarded-for"],
        trustedProxies: ["10.0.0.0/8", "192.0.2.10", "2001:db8:ffff::/48"],
      },
    },
  },
  [
    [
      "trusted hops are skipped right to left",
      { "x-forwarded-for": "6.6.6.6, 203.0.113.7, 10.1.2.3, 192.0.2.10" },
      "203.0.113.7|/ok",
    ],
    [
      "an untrusted last hop is the client",
      { "x-forwarded-for": "203.0.113.7, 192.0.2.11" },
      "192.0.2.11|/ok",
    ],
    [
      "IPv6 proxies",
      { "x-forwarded-for": "2001:db8:1::5, 2001:db8:ffff:9::1" },
      "2001:0db8:0001:0000:0000:0000:0000:0000|/ok",
    ],
    [
      "an IPv4-mapped hop matches an IPv4 range",
      { "x-forwarded-for": "203.0.113.7, ::ffff:10.0.0.2" },
      "203.0.113.7|/ok",
    ],
    ["all hops trusted", { "x-forwarded-for": "10.0.0.1, 10.0.0.2" }, "127.0.0.1|/ok"],
    [
      "an unparsable hop ends the walk",
      { "x-forwarded-for": "203.0.113.7, junk, 10.0.0.2" },
      "127.0.0.1|/ok",
    ],
    [
      "the first configured header wins",
      { "x-client-ip": "198.51.100.8", "x-forwarded-for": "203.0.113.7" },
      "198.51.100.8|/ok",
    ],
    [
      "a header that yields nothing is passed over",
      { "x-client-ip": "nope", "x-forwarded-for": "203.0.113.7" },
      "203.0.113.7|/ok",
    ],
  ],
);

compareResolution("client address: ipv6Subnet 48", { advanced: { ipAddress: { ipv6Subnet: 48 } } }, [
  [
    "masked to /48",
    { "x-forwarded-for": "2001:db8:1234:5678:9abc::1" },
    "2001:0db8:1234:0000:0000:0000:0000:0000|/ok",
  ],
  ["IPv4 unaffected", { "x-forwarded-for": "203.0.113.7" }, "203.0.113.7|/ok"],
]);

compareResolution(
  "client address: ipv6Subnet 128 (no masking)",
  { advanced: { ipAddress: { ipv6Subnet: 128 } } },
  [["kept whole", { "x-forwarded-for": "2001:db8::abcd:1" }, "2001:0db8:0000:0000:0000:0000:abcd:0001|/ok"]],
);
