import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestIdP } from "@latchkey/test-support";
import {
  accounts,
  AUTH,
  genericInstance,
  idpConfig,
  sessionOf,
  signIn,
  startFlow,
  startAliceIdP,
} from "./support/instance.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startAliceIdP();
});
afterAll(() => idp.close());

describe("legacy routes off (the default)", () => {
  it("serves none of the 1.0 paths", async () => {
    const { browser } = genericInstance({ config: [idpConfig(idp)] });
    const signInRes = await browser.post(`${AUTH}/sign-in/oauth2`, { providerId: "idp", callbackURL: "/" });
    expect(signInRes.status).toBe(404);
    expect((await browser.send(`${AUTH}/oauth2/callback/idp?code=x&state=y`)).status).toBe(404);
    expect((await browser.post(`${AUTH}/oauth2/link`, { providerId: "idp", callbackURL: "/" })).status).toBe(
      404,
    );
  });
});

describe("legacy routes on", () => {
  it("signs in through /sign-in/oauth2 and /oauth2/callback/<id>, core's flow under the 1.0 paths", async () => {
    const { browser, store } = genericInstance({ config: [idpConfig(idp)], legacyRoutes: true });
    idp.login("alice-sub");
    const authorize = new URL(await startFlow(browser, { providerId: "idp" }, "/sign-in/oauth2"));
    // The 1.0 redirect URI, so IdP registrations made for 1.0 keep working.
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${AUTH}/oauth2/callback/idp`);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    const { location, hops } = await browser.follow(authorize.href);
    expect(hops.some((hop) => hop.startsWith(`${AUTH}/oauth2/callback/idp?`))).toBe(true);
    expect(new URL(location).pathname).toBe("/dashboard");
    expect((await sessionOf(browser))?.user.email).toBe("alice@example.com");
    expect(accounts(store)[0]).toMatchObject({ providerId: "idp", accountId: "alice-sub" });
  });

  it("keeps the new routes working beside the old ones", async () => {
    const { browser } = genericInstance({ config: [idpConfig(idp)], legacyRoutes: true });
    idp.login("alice-sub");
    const landed = await signIn(browser, { provider: "idp" });
    expect(landed.pathname).toBe("/dashboard");
  });

  it("links a provider account to the signed-in user through /oauth2/link", async () => {
    const { browser, store } = genericInstance({ config: [idpConfig(idp)], legacyRoutes: true });
    const signUp = await browser.post(`${AUTH}/sign-up/email`, {
      email: "alice@example.com",
      password: "correct horse battery",
      name: "Alice",
    });
    expect(signUp.status).toBe(200);
    idp.login("alice-sub");
    const url = await startFlow(browser, { providerId: "idp", callbackURL: "/settings" }, "/oauth2/link");
    expect(new URL(url).searchParams.get("redirect_uri")).toBe(`${AUTH}/oauth2/callback/idp`);
    const { location } = await browser.follow(url);
    expect(new URL(location).pathname).toBe("/settings");
    const linked = accounts(store).filter((a) => a.providerId === "idp");
    expect(linked).toHaveLength(1);
    expect(linked[0]!.userId).toBe((store.user ?? [])[0]!.id);
  });

  it("refuses /oauth2/link without a session (401) and unknown providers (400 PROVIDER_CONFIG_NOT_FOUND)", async () => {
    const { browser } = genericInstance(
      { config: [idpConfig(idp)], legacyRoutes: true },
      { socialProviders: { github: { clientId: "id", clientSecret: "secret" } } },
    );
    const noSession = await browser.post(`${AUTH}/oauth2/link`, { providerId: "idp", callbackURL: "/" });
    expect(noSession.status).toBe(401);
    for (const providerId of ["nope", "github"]) {
      const res = await browser.post(`${AUTH}/sign-in/oauth2`, { providerId, callbackURL: "/" });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { code: string; message: string };
      expect(body).toEqual({ code: "PROVIDER_CONFIG_NOT_FOUND", message: "No config found for provider" });
    }
    const invalid = await browser.post(`${AUTH}/sign-in/oauth2`, { provider: "idp" });
    expect(invalid.status).toBe(400);
  });
});
