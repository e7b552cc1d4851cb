import * as oidc from "openid-client";
import { expect, it } from "vitest";
import { sessionUser, signedUpPage, signUp, waitForSession } from "./e2e-browser.js";
import { authorizationRequest, discover, redeem, startCallbackServer, type ClientCredentials } from "./relying-party.js";

// The demo as an OpenID provider: a relying party (openid-client 6, in this process, with its
// redirect URI on 127.0.0.1) signs a user in through the demo's login and consent pages.

it("OpenID provider: an openid-client relying party signs a user in through the demo's login and consent pages", async () => {
  const { redirectURI, landed } = await startCallbackServer();

  // The application's developer registers it on /security and copies the credentials.
  const { demo, browser, page: owner } = await signedUpPage("rp-owner");
  await owner.click("nav a[href='/security']");
  await owner.fill("#oauth-app-name", "Relying Party");
  await owner.fill("#oauth-app-redirect", redirectURI);
  await owner.click("#oauth-app-create button[type=submit]");
  await owner.waitForSelector("#oauth-app-created:not([hidden])");
  const credentials = JSON.parse((await owner.textContent("#oauth-app-created")) ?? "") as ClientCredentials;
  await owner.locator(`#oauth-apps li[data-client-id="${credentials.client_id}"]`, { hasText: "Relying Party" }).waitFor();
  await owner.close();

  // A user with an account, signed out, on a fresh browser profile.
  const page = await browser.newPage();
  const email = `rp-user-${Date.now()}@example.com`;
  await page.goto(`${demo.baseURL}/`);
  await signUp(page, email);
  await waitForSession(page, email);
  const user = await sessionUser(page);
  await page.click("#sign-out");
  await waitForSession(page, null);

  const config = await discover(demo.baseURL, credentials);
  const request = await authorizationRequest(config, redirectURI, "openid profile email");

  // authorize → the demo's login page → its consent page → the application's callback.
  await page.goto(request.url.href);
  await page.waitForURL(/\/oauth\/sign-in\?/);
  await page.locator("#oauth-client", { hasText: credentials.client_id }).waitFor();
  await page.fill("#oauth-email", email);
  await page.fill("#oauth-password", "not the password");
  await page.click("#oauth-sign-in button[type=submit]");
  await page.locator("#error", { hasText: "Invalid email or password" }).waitFor();
  await page.fill("#oauth-password", "correct horse battery");
  await page.click("#oauth-sign-in button[type=submit]");
  await page.waitForURL(/\/oauth\/consent\?/);
  await page.locator("#consent-client", { hasText: "Relying Party" }).waitFor();
  expect(await page.textContent("#consent-user")).toBe(email);
  expect(await page.locator("#consent-scopes li").evaluateAll((items) => items.map((li) => (li as HTMLElement).dataset.scope))).toEqual([
    "openid",
    "profile",
    "email",
  ]);
  await page.click("#consent-allow");
  await page.waitForURL((url) => url.href.startsWith(redirectURI));
  await page.locator("#rp").waitFor();
  expect(landed).toHaveLength(1);

  const tokens = await redeem(config, landed[0]!, request);
  const claims = tokens.claims()!;
  expect(claims).toMatchObject({ sub: user.id, iss: `${demo.baseURL}/api/auth`, aud: credentials.client_id });
  const userInfo = await oidc.fetchUserInfo(config, tokens.access_token, user.id);
  expect(userInfo).toMatchObject({ sub: user.id, email, email_verified: false });

  // Consent is remembered: a second authorization goes straight back with a code.
  const again = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectURI,
    scope: "openid email",
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: "S256",
    state: oidc.randomState(),
  });
  await page.goto(again.href);
  await page.locator("#rp").waitFor();
  expect(landed).toHaveLength(2);
  expect(landed[1]!.searchParams.get("code")).toMatch(/\S/);
  await page.close();
}, 120_000);
