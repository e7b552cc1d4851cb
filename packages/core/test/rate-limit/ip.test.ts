import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createAuth,
  getClientIP,
  memoryAdapter,
  normalizeIP,
  type IPAddressOptions,
  type Row,
} from "../../src/index.ts";
import { BASE, limitedInstance, SECRET } from "./instance.ts";

afterEach(() => vi.unstubAllEnvs());

/** NODE_ENV=production without vitest's TEST variable, which the reference also reads as test mode. */
function production(): void {
  vi.stubEnv("NODE_ENV", "production");
  vi.stubEnv("TEST", "");
}

const V6_A = "2001:0db8:0000:0000:0000:0000:0000:0000";

describe("normalizeIP (reference core.md §11.4)", () => {
  const cases: Array<[string, number | undefined, string | null]> = [
    ["203.0.113.7", undefined, "203.0.113.7"],
    [" 203.0.113.7 ", undefined, "203.0.113.7"],
    ["::ffff:192.0.2.1", undefined, "192.0.2.1"],
    ["::ffff:c000:0201", undefined, "192.0.2.1"],
    ["::FFFF:192.0.2.1", undefined, "192.0.2.1"],
    ["2001:DB8::1", undefined, V6_A],
    ["2001:db8:0:0:0:0:2:1", undefined, V6_A],
    ["2001:db8::abcd:1", 128, "2001:0db8:0000:0000:0000:0000:abcd:0001"],
    ["2001:db8:1234:5678:9abc::1", 48, "2001:0db8:1234:0000:0000:0000:0000:0000"],
    ["2001:db8:1234:5678:9abc::1", 56, "2001:0db8:1234:5600:0000:0000:0000:0000"],
    ["2001:db8:1234:5678::1", 0, "0000:0000:0000:0000:0000:0000:0000:0000"],
    // Out of range degrades as the reference documents: negative masks all, above 128 none.
    ["2001:db8::1", -8, "0000:0000:0000:0000:0000:0000:0000:0000"],
    ["2001:db8::1", 200, "2001:0db8:0000:0000:0000:0000:0000:0001"],
    ["::1", undefined, "0000:0000:0000:0000:0000:0000:0000:0000"],
    ["1::", undefined, "0001:0000:0000:0000:0000:0000:0000:0000"],
    // Not addresses the reference accepts.
    ["[::1]", undefined, null],
    ["fe80::1%eth0", undefined, null],
    ["203.0.113.7:8080", undefined, null],
    ["01.2.3.4", undefined, null],
    ["256.1.1.1", undefined, null],
    ["2001:db8::1:2:3:4:5:6:7", undefined, null],
    ["1:2:3:4:5:6:7", undefined, null],
    ["unknown", undefined, null],
  ];
  it.each(cases)("%j /%s → %s", (raw, subnet, expected) => {
    expect(normalizeIP(raw, subnet)).toBe(expected);
  });
});

describe("getClientIP", () => {
  const ip = (headers: Record<string, string>, ipAddress?: IPAddressOptions) =>
    getClientIP(new Headers(headers), { advanced: { ipAddress } });

  it("reads x-forwarded-for by default; a single address only", () => {
    production();
    expect(ip({ "x-forwarded-for": "203.0.113.7" })).toBe("203.0.113.7");
    // A trailing empty hop is dropped, as in the reference.
    expect(ip({ "x-forwarded-for": "203.0.113.7, " })).toBe("203.0.113.7");
    // A chain could start with anything the client wrote: without trusted proxies it is ignored.
    expect(ip({ "x-forwarded-for": "198.51.100.1, 203.0.113.7" })).toBeNull();
    expect(ip({ "x-forwarded-for": "garbage" })).toBeNull();
    expect(ip({ "x-real-ip": "203.0.113.7" })).toBeNull();
    expect(ip({})).toBeNull();
  });

  it("falls back to 127.0.0.1 in development and test only", () => {
    vi.stubEnv("NODE_ENV", "test");
    expect(ip({})).toBe("127.0.0.1");
    vi.stubEnv("TEST", "");
    vi.stubEnv("NODE_ENV", "development");
    expect(ip({ "x-forwarded-for": "a, b" })).toBe("127.0.0.1");
    production();
    expect(ip({})).toBeNull();
  });

  it("tries ipAddressHeaders in order, skipping headers that yield nothing", () => {
    production();
    const headers = {
      "cf-connecting-ip": "not-an-ip",
      "x-client-ip": "2001:db8::9",
      "x-forwarded-for": "203.0.113.7",
    };
    expect(ip(headers, { ipAddressHeaders: ["cf-connecting-ip", "x-client-ip", "x-forwarded-for"] })).toBe(
      V6_A,
    );
    expect(ip(headers, { ipAddressHeaders: ["x-forwarded-for", "x-client-ip"] })).toBe("203.0.113.7");
    expect(ip(headers, { ipAddressHeaders: ["cf-connecting-ip"] })).toBeNull();
  });

  it("ipv6Subnet and disableIpTracking", () => {
    expect(ip({ "x-forwarded-for": "2001:db8::abcd:1" }, { ipv6Subnet: 128 })).toBe(
      "2001:0db8:0000:0000:0000:0000:abcd:0001",
    );
    expect(ip({ "x-forwarded-for": "203.0.113.7" }, { disableIpTracking: true })).toBeNull();
  });

  describe("trustedProxies: the chain is walked right to left past trusted hops", () => {
    const proxies = { trustedProxies: ["10.0.0.0/8", "192.0.2.10", "2001:db8:ffff::/48"] };
    const cases: Array<[string, string | null]> = [
      ["203.0.113.7, 10.0.0.1, 10.2.3.4", "203.0.113.7"],
      // The leftmost hop is the client's own claim: the first untrusted hop from the right wins.
      ["6.6.6.6, 203.0.113.7, 192.0.2.10", "203.0.113.7"],
      ["203.0.113.7", "203.0.113.7"],
      ["203.0.113.7, 192.0.2.11", "192.0.2.11"],
      ["2001:db8:1::5, 2001:db8:ffff:1::1", "2001:0db8:0001:0000:0000:0000:0000:0000"],
      // An IPv4-mapped hop is matched as the IPv4 address it carries.
      ["203.0.113.7, ::ffff:10.0.0.2", "203.0.113.7"],
      // Every hop trusted, or an unparsable hop before the client: nothing to believe.
      ["10.0.0.1, 10.0.0.2", null],
      ["203.0.113.7, garbage, 10.0.0.2", null],
    ];
    it.each(cases)("%s → %s", (chain, expected) => {
      production();
      expect(ip({ "x-forwarded-for": chain }, proxies)).toBe(expected);
    });
  });

  it("an invalid trustedProxies entry is refused at createAuth", () => {
    for (const bad of ["10.0.0.0/33", "nope", "10.0.0.0/", "2001:db8::/129", "10.0.0.0/8x"]) {
      expect(() =>
        createAuth({
          database: memoryAdapter(),
          secret: SECRET,
          baseURL: BASE,
          advanced: { ipAddress: { trustedProxies: [bad] } },
        }),
      ).toThrow(TypeError);
    }
  });
});

describe("the rate-limit key", () => {
  const rows = (store: Record<string, Row[]>) => (store.rateLimit ?? []).map((r) => [r.key, r.count]);

  it("is <normalised ip>|<path>; one IPv6 /64 is one client", async () => {
    const { store, send } = limitedInstance({ rateLimit: { storage: "database" } });
    await send("/sign-in/email", { ip: "2001:db8::1", method: "POST", body: "{}" });
    await send("/sign-in/email", { ip: "2001:DB8:0:0:ffff::2", method: "POST", body: "{}" });
    await send("/ok", { ip: "::ffff:203.0.113.7" });
    expect(rows(store)).toEqual([
      [`${V6_A}|/sign-in/email`, 2],
      ["203.0.113.7|/ok", 1],
    ]);
    const third = await send("/sign-in/email", { ip: "2001:db8::3", method: "POST", body: "{}" });
    expect(third.status).toBe(400);
    expect((await send("/sign-in/email", { ip: "2001:db8::4", method: "POST", body: "{}" })).status).toBe(
      429,
    );
    expect((await send("/sign-in/email", { ip: "2001:db8:0:1::4", method: "POST", body: "{}" })).status).toBe(
      400,
    );
  });

  it("with trusted proxies the key is the client behind them", async () => {
    production();
    const { store, send } = limitedInstance({
      rateLimit: { storage: "database" },
      advanced: { ipAddress: { trustedProxies: ["10.0.0.0/8"] } },
    });
    await send("/ok", { ip: "6.6.6.6, 203.0.113.7, 10.1.1.1" });
    expect(rows(store)).toEqual([["203.0.113.7|/ok", 1]]);
  });

  it("without a resolvable address all such requests share the no-trusted-ip bucket, with one warning", async () => {
    production();
    const { store, send, logs } = limitedInstance({ rateLimit: { storage: "database", max: 2 } });
    const statuses = [];
    for (const ip of [null, "198.51.100.1, 203.0.113.7", "junk"])
      statuses.push((await send("/ok", { ip })).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect(rows(store)).toEqual([["no-trusted-ip|/ok", 2]]);
    expect(logs.filter((l) => l.message.includes("could not determine a client IP"))).toHaveLength(1);
  });

  it("disableIpTracking turns rate limiting off", async () => {
    production();
    const { store, statuses } = limitedInstance({
      rateLimit: { storage: "database", max: 1 },
      advanced: { ipAddress: { disableIpTracking: true } },
    });
    expect(await statuses(3, "/ok")).toEqual([200, 200, 200]);
    expect(store.rateLimit ?? []).toEqual([]);
  });
});
