import * as oidc from "openid-client";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { apiUser, PASSWORD, type APIUser } from "./api-user.js";
import { setup } from "./e2e-browser.js";
import { answersTo, authorizationRequest, discover, redeem, registerClient, startCallbackServer, type AuthorizationRequest } from "./relying-party.js";
import { totpGenerator } from "./totp.js";

// The demo's login and consent pages as an OpenID provider's interaction steps, beyond the plain
// path of e2e-oidc.test.ts: the login page's second factor, and the consent page's Deny. Accounts
// and clients are made over the API; one demo, one Chromium and one relying party serve the file.

let relyingParty: ReturnType<typeof startCallbackServer> | undefined;
const callbackServer = (): ReturnType<typeof startCallbackServer> => (relyingParty ??= startCallbackServer());

/** A fresh browser profile that follows `request` to the login page and submits `user`'s password. */
async function signInThroughLoginPage(request: AuthorizationRequest, user: APIUser): Promise<Page> {
  const { browser } = await setup();
  const page = await browser.newPage();
  await page.goto(request.url.href);
  await page.waitForURL(/\/oauth\/sign-in\?/);
  await page.fill("#oauth-email", user.email);
  await page.fill("#oauth-password", PASSWORD);
  await page.click("#oauth-sign-in button[type=submit]");
  return page;
}

/** The session the page's browser holds on the demo, as `/get-session` answers it there. */
const browserSession = (page: Page): Promise<unknown> => page.evaluate(() => fetch("/api/auth/get-session").then((res) => res.json()));

it("OpenID provider: a user with two-factor sign-in finishes the login page with a TOTP code, later with a backup code", async () => {
  const { demo } = await setup();
  const { redirectURI, landed } = await callbackServer();
  const user = await apiUser(demo.baseURL, `rp-2fa-${Date.now()}@example.com`);
  const credentials = await registerClient(user, "Two-factor RP", redirectURI);
  const enrolled = await user.call<{ totpURI: string; backupCodes: string[] }>("/two-factor/enable", { password: PASSWORD });
  const totp = totpGenerator(new URL(enrolled.totpURI).searchParams.get("secret") ?? "");
  await user.call("/two-factor/verify-totp", { code: await totp.next() });
  const config = await discover(demo.baseURL, credentials);

  /** The password is right: the same page asks for the second factor, and no session exists yet. */
  const toSecondFactor = async (request: AuthorizationRequest): Promise<Page> => {
    const page = await signInThroughLoginPage(request, user);
    await page.locator("#oauth-second-factor").waitFor();
    expect(await page.isHidden("#oauth-password-step")).toBe(true);
    expect(await browserSession(page)).toBeNull();
    return page;
  };

  const first = await authorizationRequest(config, redirectURI, "openid profile email");
  const page = await toSecondFactor(first);
  await page.fill("#oauth-totp-code", "000000");
  await page.click("#oauth-totp button[type=submit]");
  await page.locator("#error", { hasText: "Invalid code" }).waitFor();
  await page.fill("#oauth-totp-code", await totp.next());
  await page.click("#oauth-totp button[type=submit]");
  await page.waitForURL(/\/oauth\/consent\?/);
  await page.locator("#consent-user", { hasText: user.email }).waitFor();
  await page.click("#consent-allow");
  await page.locator("#rp").waitFor();
  const [firstCallback, ...extra] = answersTo(landed, first);
  expect(extra).toEqual([]);
  const tokens = await redeem(config, firstCallback!, first);
  expect(tokens.claims()).toMatchObject({ sub: user.id, iss: `${demo.baseURL}/api/auth`, aud: credentials.client_id });
  expect(await oidc.fetchUserInfo(config, tokens.access_token, user.id)).toMatchObject({ sub: user.id, email: user.email });
  await page.close();

  // Another browser, a backup code: the consent is remembered, so the code goes straight back.
  const second = await authorizationRequest(config, redirectURI, "openid email");
  const other = await toSecondFactor(second);
  await other.fill("#oauth-backup-code", enrolled.backupCodes[0]!);
  await other.click("#oauth-backup button[type=submit]");
  await other.locator("#rp").waitFor();
  expect(answersTo(landed, second)).toHaveLength(1);
  const again = await redeem(config, answersTo(landed, second)[0]!, second);
  expect(await oidc.fetchUserInfo(config, again.access_token, user.id)).toMatchObject({ sub: user.id, email: user.email });
  await other.close();
}, 120_000);

it("OpenID provider: Deny on the consent page sends access_denied with state and iss to the relying party and stores no consent", async () => {
  const { demo } = await setup();
  const { redirectURI, landed } = await callbackServer();
  const user = await apiUser(demo.baseURL, `rp-deny-${Date.now()}@example.com`);
  const credentials = await registerClient(user, "Denied RP", redirectURI);
  const config = await discover(demo.baseURL, credentials);

  const request = await authorizationRequest(config, redirectURI, "openid email");
  const page = await signInThroughLoginPage(request, user);
  await page.waitForURL(/\/oauth\/consent\?/);
  await page.locator("#consent-client", { hasText: "Denied RP" }).waitFor();
  await page.click("#consent-deny");
  await page.locator("#rp").waitFor();
  const [callback, ...extra] = answersTo(landed, request);
  expect(extra).toEqual([]);
  // RFC 6749 §4.1.2.1 (error, state) and RFC 9207 §2 (iss) on the error response too.
  expect(Object.fromEntries(callback!.searchParams)).toEqual({
    error: "access_denied",
    error_description: "User denied access",
    state: request.state,
    iss: `${demo.baseURL}/api/auth`,
  });
  // openid-client checks iss against the discovered issuer and the state before it reports the error.
  await expect(redeem(config, callback!, request)).rejects.toMatchObject({ error: "access_denied" });
  expect(await user.call("/oauth2/get-consents")).toEqual([]);

  // Nothing was remembered: the next authorization asks again, and no code was issued meanwhile.
  const next = await authorizationRequest(config, redirectURI, "openid email");
  await page.goto(next.url.href);
  await page.waitForURL(/\/oauth\/consent\?/);
  await page.locator("#consent-client", { hasText: "Denied RP" }).waitFor();
  expect(answersTo(landed, next)).toEqual([]);
  await page.close();
}, 120_000);
