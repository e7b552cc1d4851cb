import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  client,
  startDNSServer,
  type TestAuth,
  type TestDNSServer,
  type TestIdP,
} from "@latchkey/test-support";
import { AUTH, registration, signedIn, ssoInstance, startSSOIdP } from "./instance.ts";

const BASE = "http://localhost:3000";

let idp: TestIdP;
let dns: TestDNSServer;
let t: TestAuth;
beforeAll(async () => {
  idp = await startSSOIdP(["acme", "multi", "late", "edited"]);
  idp.accounts.set("vera-sub", { email: "vera@acme.example", email_verified: true, name: "Vera" });
  dns = await startDNSServer();
  t = await ssoInstance("sqlite", idp, { domainVerification: { enabled: true, nameservers: [dns.address] } });
});
afterAll(async () => {
  await t.close();
  await idp.close();
  await dns.close();
});

const verificationRow = (identifier: string) =>
  t.auth.$context.adapter.findOne<{ value: string; expiresAt: Date }>({
    model: "verification",
    where: [{ field: "identifier", value: identifier }],
  });

const startSignIn = (browser: Browser, body: Record<string, unknown>) =>
  browser.post(`${AUTH}/sign-in/sso`, { callbackURL: "/dashboard", ...body });

describe("domain verification over real DNS (UDP on 127.0.0.1)", () => {
  it("register issues a token; sign-in is refused until the TXT record proves the domain; then it works", async () => {
    const owner = await signedIn(t, "dv-owner");
    const registered = await owner.post("/sso/register", registration(idp, "acme"));
    expect(registered.status).toBe(200);
    const { domainVerified, domainVerificationToken } = registered.json as Record<string, string | boolean>;
    expect(domainVerified).toBe(false);
    expect(domainVerificationToken).toMatch(/^[A-Za-z0-9_-]{24}$/);
    // Stored as the reference stores it: the verification table, identifier `_better-auth-token-<providerId>`.
    const row = await verificationRow("_better-auth-token-acme");
    expect(row?.value).toBe(domainVerificationToken);
    expect(new Date(row!.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);

    const browser = new Browser(BASE, t.auth.handler);
    const refused = await startSignIn(browser, { email: "vera@acme.example" });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ message: "Provider domain has not been verified" });

    // No record yet: 502, and the provider stays unverified.
    const missing = await owner.post("/sso/verify-domain", { providerId: "acme" });
    expect(missing.status).toBe(502);
    expect(missing.json).toMatchObject({
      code: "DOMAIN_VERIFICATION_FAILED",
      message: "Unable to verify domain ownership for acme.example. Try again later",
    });
    expect(dns.queries.at(-1)).toEqual({ name: "_better-auth-token-acme.acme.example", type: 16 });
    // A record with another token does not prove anything.
    dns.txt.set("_better-auth-token-acme.acme.example", [
      "v=spf1 -all",
      "_better-auth-token-acme=wrongtoken",
    ]);
    expect((await owner.post("/sso/verify-domain", { providerId: "acme" })).status).toBe(502);

    // Asking again answers the live token (201), not a new one.
    const again = await owner.post("/sso/request-domain-verification", { providerId: "acme" });
    expect(again.status).toBe(201);
    expect(again.json).toEqual({ domainVerificationToken });

    dns.txt.set("_better-auth-token-acme.acme.example", [
      "v=spf1 -all",
      `_better-auth-token-acme=${domainVerificationToken}`,
    ]);
    const verified = await owner.post("/sso/verify-domain", { providerId: "acme" });
    expect(verified.status).toBe(204);
    expect(verified.text).toBe("");
    expect((await owner.get("/sso/get-provider?providerId=acme")).json).toMatchObject({
      domainVerified: true,
    });
    const stored = await t.auth.$context.adapter.findOne<Record<string, unknown>>({
      model: "ssoProvider",
      where: [{ field: "providerId", value: "acme" }],
    });
    expect(stored?.domainVerified).toBe(true);

    for (const path of ["/sso/verify-domain", "/sso/request-domain-verification"]) {
      const answer = await owner.post(path, { providerId: "acme" });
      expect(answer.status).toBe(409);
      expect(answer.json).toMatchObject({
        code: "DOMAIN_VERIFIED",
        message: "Domain has already been verified",
      });
    }

    idp.login("vera-sub");
    const started = await startSignIn(browser, { email: "vera@acme.example" });
    expect(started.status).toBe(200);
    const { location } = await browser.follow(((await started.json()) as { url: string }).url);
    expect(location).toBe(`${BASE}/dashboard`);
  });

  it("a domain list needs a record on every domain; the bare token is accepted too", async () => {
    const owner = await signedIn(t, "dv-multi");
    const registered = await owner.post("/sso/register", {
      ...registration(idp, "multi"),
      domain: "one.example, two.example",
    });
    const token = (registered.json as { domainVerificationToken: string }).domainVerificationToken;
    dns.txt.set("_better-auth-token-multi.one.example", [token]);
    const half = await owner.post("/sso/verify-domain", { providerId: "multi" });
    expect(half.status).toBe(502);
    expect((half.json as { message: string }).message).toContain("two.example");
    dns.txt.set("_better-auth-token-multi.two.example", [`  ${token} `]);
    expect((await owner.post("/sso/verify-domain", { providerId: "multi" })).status).toBe(204);
  });

  it("404 without a live token, 404/403 for unknown or foreign providers, and a changed domain must be proven again", async () => {
    const owner = await signedIn(t, "dv-late");
    const registered = await owner.post("/sso/register", {
      ...registration(idp, "late"),
      domain: "late.example",
    });
    const token = (registered.json as { domainVerificationToken: string }).domainVerificationToken;
    await t.auth.$context.adapter.deleteMany({
      model: "verification",
      where: [{ field: "identifier", value: "_better-auth-token-late" }],
    });
    const none = await owner.post("/sso/verify-domain", { providerId: "late" });
    expect(none.status).toBe(404);
    expect(none.json).toMatchObject({ code: "NO_PENDING_VERIFICATION" });
    expect((await owner.post("/sso/verify-domain", { providerId: "nope" })).json).toMatchObject({
      code: "PROVIDER_NOT_FOUND",
    });
    const stranger = await signedIn(t, "dv-stranger");
    const foreign = await stranger.post("/sso/request-domain-verification", { providerId: "late" });
    expect(foreign.status).toBe(403);
    expect(await verificationRow("_better-auth-token-late")).toBeNull();
    // A fresh token, then proof, then a new domain resets the flag.
    const fresh = await owner.post("/sso/request-domain-verification", { providerId: "late" });
    const freshToken = (fresh.json as { domainVerificationToken: string }).domainVerificationToken;
    expect(freshToken).not.toBe(token);
    dns.txt.set("_better-auth-token-late.late.example", [freshToken]);
    expect((await owner.post("/sso/verify-domain", { providerId: "late" })).status).toBe(204);
    const moved = await owner.post("/sso/update-provider", { providerId: "late", domain: "moved.example" });
    expect(moved.json).toMatchObject({ domain: "moved.example", domainVerified: false });
    expect((await owner.post("/sso/verify-domain", { providerId: "late" })).status).toBe(502);
  });

  it("refuses a provider id whose record label would exceed 63 characters (400 IDENTIFIER_TOO_LONG)", async () => {
    const owner = await signedIn(t, "dv-long");
    const providerId = "p".repeat(50);
    expect(
      (await owner.post("/sso/register", { ...registration(idp, providerId), domain: "long.example" }))
        .status,
    ).toBe(200);
    const answer = await owner.post("/sso/verify-domain", { providerId });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: "IDENTIFIER_TOO_LONG" });
  });
});

describe("domain verification options", () => {
  it("tokenPrefix names the record; resolveTxt replaces node:dns (edge runtimes)", async () => {
    const asked: string[] = [];
    const edge = await ssoInstance("sqlite", idp, {
      domainVerification: {
        enabled: true,
        tokenPrefix: "acme-proof",
        resolveTxt: (name) => {
          asked.push(name);
          return name === "_acme-proof-edited.edited.example" ? [["_acme-proof-edited=", token]] : [];
        },
      },
    });
    let token = "";
    try {
      const owner = await signedIn(edge, "edge");
      const registered = await owner.post("/sso/register", {
        ...registration(idp, "edited"),
        domain: "edited.example",
      });
      token = (registered.json as { domainVerificationToken: string }).domainVerificationToken;
      expect((await owner.post("/sso/verify-domain", { providerId: "edited" })).status).toBe(204);
      expect(asked).toEqual(["_acme-proof-edited.edited.example"]);
    } finally {
      await edge.close();
    }
  });

  it("without domainVerification.enabled the routes do not exist and providers need no proof", async () => {
    const plain = await ssoInstance("sqlite", idp);
    try {
      const owner = await signedIn(plain, "plain");
      const registered = await owner.post("/sso/register", registration(idp, "acme"));
      expect(registered.json).not.toHaveProperty("domainVerificationToken");
      expect((await owner.post("/sso/verify-domain", { providerId: "acme" })).status).toBe(404);
      const anonymous = client(plain.auth);
      expect((await anonymous.post("/sign-in/sso", { callbackURL: "/", providerId: "acme" })).status).toBe(
        200,
      );
    } finally {
      await plain.close();
    }
  });
});
