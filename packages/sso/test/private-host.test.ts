import { lookup } from "node:dns/promises";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, testAuth, type TestAuth } from "@latchkey/test-support";
import { sso } from "../src/index.ts";
import { isPublicRoutableHost } from "../src/public-host.ts";
import { AUTH, signedIn } from "./instance.ts";

describe("isPublicRoutableHost", () => {
  it.each([
    ["idp.example.com", true],
    ["93.184.216.34", true],
    ["[2606:4700::1111]", true],
    ["127.0.0.1", false],
    ["10.1.2.3", false],
    ["172.20.0.1", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["224.0.0.1", false],
    ["[::1]", false],
    ["[::ffff:127.0.0.1]", false],
    ["[::ffff:7f00:1]", false],
    ["[fd00::1]", false],
    ["[fe80::1]", false],
    ["[2002:7f00:1::]", false],
    ["[64:ff9b::a00:1]", false],
    ["localhost", false],
    ["tenant.localhost", false],
    ["metadata.google.internal", false],
  ])("%s → %s", (host, expected) => {
    expect(isPublicRoutableHost(host)).toBe(expected);
  });

  it("reads hosts as URL parses them (decimal and hex IPv4 forms become dotted)", () => {
    expect(isPublicRoutableHost(new URL("http://2130706433/").hostname)).toBe(false);
    expect(isPublicRoutableHost(new URL("http://0x7f.1/").hostname)).toBe(false);
  });
});

describe("discovery_private_host: untrusted endpoints on internal hosts", () => {
  let t: TestAuth;
  beforeAll(async () => {
    // Nothing trusted but the app itself: 127.0.0.1 and private ranges are refused.
    t = await testAuth({ emailAndPassword: { enabled: true }, plugins: [sso()] }, { db: "sqlite" });
  });
  afterAll(() => t.close());

  it("registration with an endpoint on a private or loopback host: 400, nothing written", async () => {
    const owner = await signedIn(t, "private");
    for (const tokenEndpoint of ["http://10.1.2.3/token", "http://127.0.0.1:9/token", "http://[::1]/token"]) {
      const answer = await owner.post<{ code: string }>("/sso/register", {
        providerId: "internal",
        issuer: "https://idp.public.example",
        domain: "internal.example",
        oidcConfig: {
          clientId: "c",
          clientSecret: "s",
          skipDiscovery: true,
          authorizationEndpoint: "https://idp.public.example/auth",
          tokenEndpoint,
          jwksEndpoint: "https://idp.public.example/jwks",
        },
      });
      expect([tokenEndpoint, answer.status, answer.json?.code]).toEqual([
        tokenEndpoint,
        400,
        "discovery_private_host",
      ]);
    }
    expect(await t.auth.$context.adapter.count({ model: "ssoProvider" })).toBe(0);
  });

  it("sign-in through a stored provider whose token endpoint is on a loopback host: 400 before any redirect", async () => {
    const owner = await signedIn(t, "stored");
    const user = (await owner.get<{ user: { id: string } }>("/get-session")).json!;
    // Written as another deployment (or the reference) could have stored it.
    await t.auth.$context.adapter.create({
      model: "ssoProvider",
      data: {
        id: "row-1",
        providerId: "stored",
        issuer: "https://idp.public.example",
        domain: "stored.example",
        userId: user.user.id,
        oidcConfig: JSON.stringify({
          issuer: "https://idp.public.example",
          clientId: "c",
          clientSecret: "s",
          authorizationEndpoint: "https://idp.public.example/auth",
          tokenEndpoint: "http://169.254.169.254/latest/token",
          jwksEndpoint: "https://idp.public.example/jwks",
          discoveryEndpoint: "https://idp.public.example/.well-known/openid-configuration",
          pkce: true,
          overrideUserInfo: false,
        }),
      },
    });
    const browser = new Browser("http://localhost:3000", t.auth.handler);
    const answer = await browser.post(`${AUTH}/sign-in/sso`, { callbackURL: "/d", providerId: "stored" });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { code: string }).code).toBe("discovery_private_host");
    expect(await t.auth.$context.adapter.count({ model: "verification" })).toBe(0);
  });

  // This machine's own name resolves (through /etc/hosts) to a loopback or private address.
  const name = hostname();
  const internalName = lookup(name, { all: true })
    .then((found) => found.some((entry) => !isPublicRoutableHost(entry.address)))
    .catch(() => false);

  it("a public-looking DNS name that resolves to an internal address is refused before the token request", async (context) => {
    if (!(await internalName) || !isPublicRoutableHost(name)) context.skip();
    const owner = await signedIn(t, "dns");
    const user = (await owner.get<{ user: { id: string } }>("/get-session")).json!;
    await t.auth.$context.adapter.create({
      model: "ssoProvider",
      data: {
        id: "row-dns",
        providerId: "dns",
        issuer: "https://idp.public.example",
        domain: "dns.example",
        userId: user.user.id,
        oidcConfig: JSON.stringify({
          issuer: "https://idp.public.example",
          clientId: "c",
          clientSecret: "s",
          authorizationEndpoint: "https://idp.public.example/auth",
          tokenEndpoint: `http://${name}:9/token`,
          jwksEndpoint: "https://idp.public.example/jwks",
          pkce: true,
          overrideUserInfo: false,
        }),
      },
    });
    const browser = new Browser("http://localhost:3000", t.auth.handler);
    const answer = await browser.post(`${AUTH}/sign-in/sso`, { callbackURL: "/d", providerId: "dns" });
    const json = (await answer.json()) as { code: string; message: string };
    expect([answer.status, json.code]).toEqual([400, "discovery_private_host"]);
    expect(json.message).toContain("resolves to an address that is not publicly routable");
  });

  it("an update moving an endpoint to an internal host: 400, the row unchanged", async () => {
    const owner = await signedIn(t, "updater");
    const registered = await owner.post("/sso/register", {
      providerId: "public",
      issuer: "https://idp.public.example",
      domain: "public.example",
      oidcConfig: {
        clientId: "c",
        clientSecret: "s",
        skipDiscovery: true,
        authorizationEndpoint: "https://idp.public.example/auth",
        tokenEndpoint: "https://idp.public.example/token",
        jwksEndpoint: "https://idp.public.example/jwks",
      },
    });
    expect(registered.status).toBe(200);
    const before = await t.auth.$context.adapter.findOne<{ oidcConfig: string }>({
      model: "ssoProvider",
      where: [{ field: "providerId", value: "public" }],
    });
    const answer = await owner.post<{ code: string }>("/sso/update-provider", {
      providerId: "public",
      oidcConfig: { jwksEndpoint: "http://192.168.0.10/jwks" },
    });
    expect([answer.status, answer.json?.code]).toEqual([400, "discovery_private_host"]);
    const after = await t.auth.$context.adapter.findOne<{ oidcConfig: string }>({
      model: "ssoProvider",
      where: [{ field: "providerId", value: "public" }],
    });
    expect(after?.oidcConfig).toBe(before?.oidcConfig);
  });
});
