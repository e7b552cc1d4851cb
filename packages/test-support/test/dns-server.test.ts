import { Resolver } from "node:dns/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDNSServer, type TestDNSServer } from "../src/dns-server.ts";

let dns: TestDNSServer;
let resolver: Resolver;
beforeAll(async () => {
  dns = await startDNSServer();
  resolver = new Resolver({ timeout: 1000, tries: 1 });
  resolver.setServers([dns.address]);
});
afterAll(() => dns.close());

describe("test DNS server (real UDP on 127.0.0.1)", () => {
  it("answers the TXT records set, long ones split into 255-byte strings", async () => {
    const long = "x".repeat(300);
    dns.txt.set("_token.acme.example", ["first", long]);
    const records = await resolver.resolveTxt("_token.ACME.example");
    expect(records.map((parts) => parts.join(""))).toEqual(["first", long]);
    expect(records[1]!.map((part) => part.length)).toEqual([255, 45]);
    expect(dns.queries.at(-1)).toEqual({ name: "_token.acme.example", type: 16 });
  });

  it("answers NXDOMAIN for a name without records", async () => {
    await expect(resolver.resolveTxt("nothing.acme.example")).rejects.toMatchObject({ code: "ENOTFOUND" });
  });
});
