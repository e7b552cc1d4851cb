import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organization } from "@latchkey/organization";
import { Browser, startIdP, type TestAuth, type TestIdP } from "@latchkey/test-support";
import { startDocumentServer } from "./document-server.ts";
import { AUTH, registration, signedIn, ssoInstance } from "./instance.ts";

const BASE = "http://localhost:3000";

let idp: TestIdP;
let shared: TestAuth;
let orgs: TestAuth;
beforeAll(async () => {
  idp = await startIdP([`${AUTH}/sso/callback`, `${AUTH}/sso/callback/org-idp`, `${AUTH}/sso/callback/bare`]);
  idp.accounts.set("carol-sub", { email: "carol@acme.example", email_verified: true, name: "Carol" });
  idp.accounts.set("dave-sub", { email: "dave@bare.example", email_verified: true, name: "Dave" });
  shared = await ssoInstance("sqlite", idp, { redirectURI: "/sso/callback" });
  orgs = await ssoInstance(
    "sqlite",
    idp,
    {},
    { plugins: [organization(), (await import("../src/index.ts")).sso()] },
  );
});
afterAll(async () => {
  await shared.close();
  await orgs.close();
  await idp.close();
});

async function start(browser: Browser, body: Record<string, unknown>): Promise<URL> {
  const res = await browser.post(`${AUTH}/sign-in/sso`, { callbackURL: "/dashboard", ...body });
  const json = (await res.json()) as { url: string };
  if (res.status !== 200) throw new Error(`sign-in/sso: ${res.status} ${JSON.stringify(json)}`);
  return new URL(json.url);
}

const sessionEmail = async (browser: Browser) =>
  ((await (await browser.send(`${AUTH}/get-session`)).json()) as { user: { email: string } } | null)?.user
    .email;

describe("the shared callback (redirectURI)", () => {
  it("sends every provider's IdP back to /sso/callback and finds the provider from the state", async () => {
    const owner = await signedIn(shared, "owner");
    const registered = await owner.post<{ redirectURI: string }>("/sso/register", registration(idp, "acme"));
    expect(registered.json?.redirectURI).toBe(`${AUTH}/sso/callback`);
    const browser = new Browser(BASE, shared.auth.handler);
    idp.login("carol-sub");
    const authorize = await start(browser, { email: "carol@acme.example" });
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${AUTH}/sso/callback`);
    const { location } = await browser.follow(authorize.href);
    expect(location).toBe(`${BASE}/dashboard`);
    expect(await sessionEmail(browser)).toBe("carol@acme.example");
    const account = await shared.auth.$context.adapter.findOne<{ providerId: string; accountId: string }>({
      model: "account",
      where: [{ field: "accountId", value: "carol-sub" }],
    });
    expect(account?.providerId).toBe("acme");
  });

  it("an unknown state at /sso/callback is a redirect to the error page, nobody signed in", async () => {
    const browser = new Browser(BASE, shared.auth.handler);
    const res = await browser.send(`${AUTH}/sso/callback?code=c&state=not-a-state`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!, BASE).searchParams.get("error")).toBe("state_mismatch");
    expect(await sessionEmail(browser)).toBeUndefined();
  });
});

describe("organizationSlug (organization plugin installed)", () => {
  it("signs in through the provider of the organization with that slug", async () => {
    const owner = await signedIn(orgs, "org-owner");
    const created = await owner.post<{ id: string }>("/organization/create", {
      name: "Acme",
      slug: "acme-inc",
    });
    expect(created.status).toBe(200);
    const registered = await owner.post("/sso/register", {
      ...registration(idp, "org-idp"),
      domain: "org.example",
      organizationId: created.json!.id,
    });
    expect(registered.status).toBe(200);
    const browser = new Browser(BASE, orgs.auth.handler);
    idp.login("carol-sub");
    const authorize = await start(browser, { organizationSlug: "acme-inc" });
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${AUTH}/sso/callback/org-idp`);
    expect((await browser.follow(authorize.href)).location).toBe(`${BASE}/dashboard`);
    expect(await sessionEmail(browser)).toBe("carol@acme.example");
  });

  it("an unknown slug: 400 as the reference answers (nothing else to look up by); with an email, the email's domain", async () => {
    const browser = new Browser(BASE, orgs.auth.handler);
    const unknown = await browser.post(`${AUTH}/sign-in/sso`, {
      callbackURL: "/d",
      organizationSlug: "nope",
    });
    expect([unknown.status, await unknown.json()]).toEqual([
      400,
      { message: "providerId, orgId or domain is required" },
    ]);
    const byEmail = await start(browser, { organizationSlug: "nope", email: "x@org.example" });
    expect(byEmail.searchParams.get("redirect_uri")).toBe(`${AUTH}/sso/callback/org-idp`);
  });
});

describe("runtime discovery", () => {
  it("a provider stored without endpoints discovers them at sign-in and at the callback; the row stays as stored", async () => {
    const owner = await signedIn(orgs, "bare-owner");
    const registered = await owner.post("/sso/register", {
      ...registration(idp, "bare", { skipDiscovery: true }),
      domain: "bare.example",
    });
    expect(registered.status).toBe(200);
    const browser = new Browser(BASE, orgs.auth.handler);
    idp.login("dave-sub");
    const authorize = await start(browser, { providerId: "bare" });
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${idp.issuer}/auth`);
    expect((await browser.follow(authorize.href)).location).toBe(`${BASE}/dashboard`);
    const row = await orgs.auth.$context.adapter.findOne<{ oidcConfig: string }>({
      model: "ssoProvider",
      where: [{ field: "providerId", value: "bare" }],
    });
    expect(JSON.parse(row!.oidcConfig).tokenEndpoint).toBeUndefined();
  });

  it("keeps the stored token endpoint method at runtime, even one the discovery document does not list", async () => {
    // The document lists only private_key_jwt; the provider was stored with client_secret_basic.
    const documents = await startDocumentServer();
    const t = await ssoInstance("sqlite", idp, {}, { trustedOrigins: [idp.issuer, documents.origin] });
    try {
      const owner = await signedIn(t, "kept-method-owner");
      const registered = await owner.post("/sso/register", {
        providerId: "kept-method",
        issuer: documents.origin,
        domain: "kept.example",
        oidcConfig: {
          clientId: "kept-client",
          clientSecret: "kept-secret",
          skipDiscovery: true,
          discoveryEndpoint: `${documents.origin}/doc`,
        },
      });
      expect(registered.status).toBe(200);
      const browser = new Browser(BASE, t.auth.handler);
      const res = await browser.post(`${AUTH}/sign-in/sso`, {
        callbackURL: "/dashboard",
        providerId: "kept-method",
      });
      expect(res.status).toBe(200);
      const authorize = new URL(((await res.json()) as { url: string }).url);
      expect(`${authorize.origin}${authorize.pathname}`).toBe(`${documents.origin}/auth`);
      expect(documents.paths).toContain("/doc");
      const row = await t.auth.$context.adapter.findOne<{ oidcConfig: string }>({
        model: "ssoProvider",
        where: [{ field: "providerId", value: "kept-method" }],
      });
      expect(JSON.parse(row!.oidcConfig)).toMatchObject({
        tokenEndpointAuthentication: "client_secret_basic",
      });
    } finally {
      await t.close();
      await documents.close();
    }
  });
});
