import { CLIENT_ID, CLIENT_SECRET, startIdP, type TestIdP } from "@latchkey/test-support";
import { afterAll, expect, it } from "vitest";
import { freePort } from "./demo-process.js";
import { sessionUser, setup, signedUpPage, waitForSession } from "./e2e-browser.js";

// Single sign-on: a company's OpenID provider (node-oidc-provider from test-support, on
// 127.0.0.1) registered on /security, then an address of its domain signs in through it from
// the Passwordless page. The IdP logs in the account the test names, without a login form.

let idp: TestIdP | undefined;
afterAll(() => idp?.close());

it("SSO: a provider registered on /security signs a user of its domain in from /sign-in", async () => {
  // The demo's port first: the IdP's client needs the callback URL, the demo trusts the IdP.
  const port = await freePort();
  idp = await startIdP([`http://localhost:${port}/api/auth/sso/callback/acme`]);
  idp.accounts.set("grace-sub", { email: "grace@acme.test", email_verified: true, name: "Grace Hopper" });
  idp.login("grace-sub");
  await setup({ PORT: String(port), BETTER_AUTH_TRUSTED_ORIGINS: idp.issuer });

  const { demo, browser, page: admin } = await signedUpPage("sso-admin");
  await admin.click("nav a[href='/security']");
  await admin.fill("#sso-provider-id", "acme");
  await admin.fill("#sso-issuer", idp.issuer);
  await admin.fill("#sso-domain", "acme.test");
  await admin.fill("#sso-client-id", CLIENT_ID);
  await admin.fill("#sso-client-secret", CLIENT_SECRET);
  await admin.click("#sso-register button[type=submit]");
  const row = admin.locator('#sso-providers li[data-provider-id="acme"]');
  await row.waitFor();
  expect(await row.textContent()).toContain(`****${CLIENT_ID.slice(-4)}`);
  expect(await row.textContent()).not.toContain(CLIENT_SECRET);
  expect(await admin.isHidden("#error")).toBe(true);
  await admin.close();

  // An unknown domain is refused on the page; the company's address goes through its IdP.
  const page = await browser.newPage();
  await page.goto(`${demo.baseURL}/sign-in`);
  await waitForSession(page, null);
  await page.fill("#sso-email", "someone@elsewhere.test");
  await page.click("#sso-sign-in button[type=submit]");
  await page.locator("#error:not([hidden])").waitFor();
  await page.fill("#sso-email", "grace@acme.test");
  await page.click("#sso-sign-in button[type=submit]");
  await page.waitForURL(`${demo.baseURL}/sign-in`);
  await waitForSession(page, "grace@acme.test");
  expect(await sessionUser(page)).toMatchObject({ email: "grace@acme.test", emailVerified: false });
  expect(idp.requests).toEqual(expect.arrayContaining(["GET /auth", "POST /token"]));
  expect(await page.isHidden("#error")).toBe(true);
  await page.close();
}, 120_000);
