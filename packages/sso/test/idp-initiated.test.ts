import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, CLIENT_ID, CLIENT_SECRET, type TestAuth, type TestIdP } from "@latchkey/test-support";
import { AUTH, ssoInstance, startSSOIdP } from "./instance.ts";
import { BASE, sessionUser } from "./flow-helpers.ts";

let idp: TestIdP;
let t: TestAuth;
beforeAll(async () => {
  idp = await startSSOIdP(["corp", "closed"]);
  idp.accounts.set("ida-sub", { email: "ida@corp.example", email_verified: true, name: "Ida" });
  const config = (allowIdpInitiated: boolean) => ({
    issuer: idp.issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    authorizationEndpoint: `${idp.issuer}/auth`,
    tokenEndpoint: `${idp.issuer}/token`,
    jwksEndpoint: `${idp.issuer}/jwks`,
    userInfoEndpoint: `${idp.issuer}/me`,
    allowIdpInitiated,
  });
  t = await ssoInstance("sqlite", idp, {
    defaultSSO: [
      { providerId: "corp", domain: "corp.example", oidcConfig: config(true) },
      { providerId: "closed", domain: "closed.example", oidcConfig: config(false) },
    ],
  });
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

describe("IdP-initiated OIDC sign-in (oidcConfig.allowIdpInitiated)", () => {
  it("a callback with a code and no state restarts a normal flow (state, PKCE) that signs the user in", async () => {
    const browser = new Browser(BASE, t.auth.handler);
    const bounce = await browser.send(`${AUTH}/sso/callback/corp?code=issued-by-the-idp`);
    expect(bounce.status).toBe(302);
    const authorize = new URL(bounce.headers.get("location")!);
    expect(authorize.origin + authorize.pathname).toBe(`${idp.issuer}/auth`);
    expect(authorize.searchParams.get("state")).toEqual(expect.any(String));
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${AUTH}/sso/callback/corp`);
    // The unsolicited code was never spent.
    expect(idp.requests.some((r) => r.startsWith("POST /token"))).toBe(false);
    idp.login("ida-sub");
    const { location } = await browser.follow(authorize.href);
    expect(location).toBe(`${BASE}/`);
    expect(await sessionUser(browser)).toMatchObject({ email: "ida@corp.example" });
  });

  it("a provider without allowIdpInitiated answers such a callback with the state error, no flow started", async () => {
    const browser = new Browser(BASE, t.auth.handler);
    const answer = await browser.send(`${AUTH}/sso/callback/closed?code=issued-by-the-idp`);
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toContain("error=state_not_found");
    expect(await t.auth.$context.adapter.count({ model: "verification" })).toBe(0);
  });
});
