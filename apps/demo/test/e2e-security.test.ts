import { expect, it } from "vitest";
import { expectAccounts, sessionUser, setup, signedUpPage, signUp, waitForSession } from "./e2e-browser.js";
import { injectTestWallet } from "./wallet.js";

// Sign-in with an Ethereum wallet on /sign-in, and the /security page's API keys and account switcher.

it("wallet: signs in with Ethereum (EIP-4361) through an injected window.ethereum and shows the address", async () => {
  const { demo, browser } = await setup();
  const page = await browser.newPage();
  const { address, signed } = await injectTestWallet(page);
  await page.goto(`${demo.baseURL}/sign-in`);
  await waitForSession(page, null);
  await page.click("#wallet-sign-in button[type=submit]");
  await page.locator("#wallet-address", { hasText: address }).waitFor();
  // The address shows before the session box is redrawn: wait for the box, not only the address.
  await waitForSession(page, `${address.toLowerCase()}@siwe.placeholder.invalid`);
  const user = await sessionUser(page);
  expect(signed).toHaveLength(1);
  expect(signed[0]).toContain(`${new URL(demo.baseURL).host} wants you to sign in with your Ethereum account:\n${address}\n`);
  expect(await page.isHidden("#error")).toBe(true);

  // A second sign-in of the same wallet is the same user, with a new nonce.
  await page.click("#sign-out");
  await waitForSession(page, null);
  await page.click("#wallet-sign-in button[type=submit]");
  await waitForSession(page, user.email);
  expect((await sessionUser(page)).id).toBe(user.id);
  expect(signed[1]).not.toBe(signed[0]);
  await page.close();
}, 120_000);

it("API keys: created on /security (shown once), authenticate the demo API, and are refused once revoked", async () => {
  const { demo, page, email } = await signedUpPage("api-key");
  const me = (key?: string) =>
    fetch(`${demo.baseURL}/demo/api/me`, { headers: key ? { "x-api-key": key } : {} }).then(async (res) => ({
      status: res.status,
      body: (await res.json()) as { user?: { email: string } },
    }));

  await page.click("nav a[href='/security']");
  await page.fill("#api-key-name", "ci");
  await page.click("#api-key-create button[type=submit]");
  await page.waitForSelector("#api-key-created:not([hidden])");
  const key = ((await page.textContent("#api-key-value")) ?? "").trim();
  expect(key).toMatch(/^demo_[A-Za-z]{64}$/);
  const row = page.locator('#api-keys li[data-name="ci"]');
  await row.waitFor();
  expect(await row.textContent()).toContain(key.slice(0, 6));
  expect(await row.textContent()).not.toContain(key);

  expect(await me(key)).toEqual({ status: 200, body: { user: expect.objectContaining({ email }) } });
  expect((await me()).status).toBe(401);

  await row.locator("button", { hasText: "Revoke" }).click();
  await page.waitForFunction(() => document.querySelectorAll("#api-keys li").length === 0);
  expect(await page.isHidden("#error")).toBe(true);
  expect((await me(key)).status).toBe(401);
  await page.close();
}, 120_000);

it("multi-session on /security: two accounts listed, switching changes the signed-in user", async () => {
  const { demo, page, email: first } = await signedUpPage("switch-a");
  const second = `switch-b-${Date.now()}@example.com`;
  await signUp(page, second);
  await waitForSession(page, second);

  await page.click("nav a[href='/security']");
  await page.locator("#current-email", { hasText: second }).waitFor();
  await expectAccounts(page, [first, second]);
  await page.locator(`#accounts li[data-email="${first}"] button`, { hasText: "Switch" }).click();
  await page.locator("#current-email", { hasText: first }).waitFor();
  await page.locator(`#accounts li[data-email="${first}"][data-active="true"]`).waitFor();
  await page.reload();
  await page.locator("#current-email", { hasText: first }).waitFor();
  await page.locator(`#accounts li[data-email="${second}"] button`, { hasText: "Sign out" }).click();
  await expectAccounts(page, [first]);
  await page.goto(`${demo.baseURL}/`);
  await waitForSession(page, first);
  await page.close();
}, 120_000);
