import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, expect, it } from "vitest";
import { startDemo, type DemoProcess } from "./demo-process.js";

const CHROMIUM = "/usr/bin/chromium";
// Without the background-networking flags Chromium keeps dialling out, which this closed network refuses.
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let dataDir: string | undefined;
let demo: DemoProcess | undefined;
let browser: Browser | undefined;

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

// Setup happens inside the tests, not in beforeAll: a setup failure there would report the tests
// as skipped, and a missing browser or a demo that does not start must count as a failure.
let started: Promise<{ demo: DemoProcess; browser: Browser }> | undefined;
function setup(): Promise<{ demo: DemoProcess; browser: Browser }> {
  started ??= (async () => {
    expect(
      existsSync(CHROMIUM),
      `${CHROMIUM} is missing: run \`node tools/scripts/ensure-chromium.mjs\``,
    ).toBe(true);
    dataDir = mkdtempSync(join(tmpdir(), "latchkey-demo-e2e-"));
    demo = await startDemo({
      DATABASE_URL: join(dataDir, "demo.db"),
      AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123",
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    return { demo, browser };
  })();
  return started;
}

it("signs up, signs out, signs in, and shows the server's message for a wrong password", async () => {
  const { demo, browser } = await setup();
  const page = await browser.newPage();
  const email = `e2e-${Date.now()}@example.com`;
  const password = "correct horse battery";
  await page.goto(`${demo.baseURL}/`);
  await waitForSession(page, null);

  await page.fill("#sign-up-name", "E2E User");
  await page.fill("#sign-up-email", email);
  await page.fill("#sign-up-password", password);
  await page.click("#sign-up button[type=submit]");
  await waitForSession(page, email);

  await page.click("#sign-out");
  await waitForSession(page, null);

  await page.fill("#sign-in-email", email);
  await page.fill("#sign-in-password", password);
  await page.click("#sign-in button[type=submit]");
  await waitForSession(page, email);
  expect(await page.isHidden("#error")).toBe(true);

  await page.fill("#sign-in-password", "not the password");
  await page.click("#sign-in button[type=submit]");
  await page.waitForSelector("#error:not([hidden])");
  expect(await page.textContent("#error")).toBe("Invalid email or password");
  await page.screenshot({ path: join(import.meta.dirname, "../test-results/e2e.png"), fullPage: true });
  await page.close();
}, 120_000);

it("verifies the email from the outbox, adds a second account, switches and signs one out, and shows a JWT", async () => {
  const { demo, browser } = await setup();
  const page = await browser.newPage();
  const stamp = Date.now();
  const [first, second] = [`first-${stamp}@example.com`, `second-${stamp}@example.com`];
  await page.goto(`${demo.baseURL}/`);
  await waitForSession(page, null);
  await signUp(page, first);
  await waitForSession(page, first);
  expect(await sessionUser(page)).toMatchObject({ email: first, emailVerified: false });

  // The verification mail is in the outbox; its link verifies and lands back on the account page.
  await page.click("nav a[href='/outbox']");
  const mail = page.locator(`#mails li[data-to="${first}"][data-subject="Verify your email address"]`);
  await mail.waitFor();
  await mail.locator("a").click();
  await page.waitForURL(`${demo.baseURL}/`);
  await waitForSession(page, first);
  expect(await sessionUser(page)).toMatchObject({ email: first, emailVerified: true });

  // The JWT names the user and verifies against the demo's own JWKS.
  await page.click("#get-jwt");
  await page.waitForSelector("#jwt-claims:not([hidden])");
  const { token, claims } = JSON.parse((await page.textContent("#jwt-claims")) ?? "") as {
    token: string;
    claims: { sub: string; email: string };
  };
  const user = await sessionUser(page);
  expect(claims).toMatchObject({ sub: user.id, email: first });
  const jwks = createRemoteJWKSet(new URL(`${demo.baseURL}/api/auth/jwks`));
  const { payload } = await jwtVerify(token, jwks, { issuer: demo.baseURL, audience: demo.baseURL });
  expect(payload.sub).toBe(user.id);

  // A second sign-up on the same browser becomes the active account; both are listed.
  await signUp(page, second);
  await waitForSession(page, second);
  await expectAccounts(page, [first, second]);
  await page.locator(`#accounts li[data-email="${first}"] button`, { hasText: "Switch" }).click();
  await waitForSession(page, first);
  await page.locator(`#accounts li[data-email="${second}"] button`, { hasText: "Sign out" }).click();
  await expectAccounts(page, [first]);
  await waitForSession(page, first);
  await page.click("#sign-out");
  await waitForSession(page, null);
  await expectAccounts(page, []);
  await page.close();
}, 120_000);

it("resets a forgotten password through the link in the outbox", async () => {
  const { demo, browser } = await setup();
  const page = await browser.newPage();
  const email = `reset-${Date.now()}@example.com`;
  await page.goto(`${demo.baseURL}/`);
  await signUp(page, email);
  await waitForSession(page, email);
  await page.click("#sign-out");
  await waitForSession(page, null);

  await page.fill("#forgot-email", email);
  await page.click("#forgot button[type=submit]");
  await page.waitForSelector("#forgot-sent:not([hidden])");
  await page.goto(`${demo.baseURL}/outbox`);
  const mail = page.locator(`#mails li[data-to="${email}"][data-subject="Reset your password"]`);
  await mail.waitFor();
  await mail.locator("a").click();
  await page.waitForURL(/\/reset-password\?token=/);
  await page.fill("#reset-password", "a brand new password");
  await page.click("#reset button[type=submit]");
  await page.waitForSelector("#reset-done:not([hidden])");

  await page.goto(`${demo.baseURL}/`);
  await page.fill("#sign-in-email", email);
  await page.fill("#sign-in-password", "a brand new password");
  await page.click("#sign-in button[type=submit]");
  await waitForSession(page, email);
  await page.close();
}, 120_000);

it("organizations: create one, invite through the outbox, the invitee accepts, a team gets both", async () => {
  const { demo, browser } = await setup();
  const stamp = Date.now();
  const [alice, bob] = [`alice-${stamp}@example.com`, `bob-${stamp}@example.com`];
  const owner = await browser.newPage();
  await owner.goto(`${demo.baseURL}/`);
  await signUp(owner, alice);
  await waitForSession(owner, alice);

  await owner.click("nav a[href='/organizations']");
  await owner.fill("#org-name", "Acme");
  await owner.fill("#org-slug", `acme-${stamp}`);
  await owner.click("#create-org button[type=submit]");
  await owner.locator(`#orgs li[data-slug="acme-${stamp}"]`, { hasText: "active" }).waitFor();
  await owner.locator(`#members li[data-email="${alice}"]`, { hasText: "owner" }).waitFor();
  await owner.fill("#invite-email", bob);
  await owner.click("#invite button[type=submit]");
  await owner.locator(`#invitations li[data-email="${bob}"][data-status="pending"]`).waitFor();

  // Bob signs up in his own browser, opens the invitation from the outbox and accepts it.
  const invitee = await browser.newPage();
  await invitee.goto(`${demo.baseURL}/`);
  await signUp(invitee, bob);
  await waitForSession(invitee, bob);
  await invitee.goto(`${demo.baseURL}/outbox`);
  await invitee
    .locator(`#mails li[data-to="${bob}"]`, { hasText: "invites you to Acme" })
    .locator("a")
    .click();
  await invitee.waitForURL(/\/invitation\?id=/);
  await invitee.locator("#invitation", { hasText: `${alice} invites you to Acme as member.` }).waitFor();
  await invitee.click("#accept");
  await invitee.locator("#answered", { hasText: "Accepted." }).waitFor();
  await invitee.click("#answered a");
  await invitee.locator(`#orgs li[data-slug="acme-${stamp}"]`, { hasText: "active" }).waitFor();
  await invitee.locator(`#members li[data-email="${alice}"]`, { hasText: "owner" }).waitFor();
  await invitee.locator(`#members li[data-email="${bob}"]`, { hasText: "member" }).waitFor();

  // Alice sees the accepted invitation, makes a team and puts both in it.
  await owner.reload();
  await owner.locator(`#invitations li[data-email="${bob}"][data-status="accepted"]`).waitFor();
  await owner.fill("#team-name", "Core");
  await owner.click("#create-team button[type=submit]");
  const team = owner.locator('#teams li[data-team="Core"]');
  await team.waitFor();
  for (const email of [alice, bob]) {
    await team.locator("select").selectOption({ label: email });
    await team.locator("button", { hasText: "Add to team" }).click();
    await owner.locator(`#teams li[data-team="Core"][data-members*="${email}"]`).waitFor();
  }
  await team.locator("button", { hasText: "Set active team" }).click();
  await owner.locator('#teams li[data-team="Core"]', { hasText: "active" }).waitFor();
  expect(await owner.isHidden("#error")).toBe(true);
  await owner.screenshot({
    path: join(import.meta.dirname, "../test-results/organizations.png"),
    fullPage: true,
  });
  await owner.close();
  await invitee.close();
}, 120_000);

it("passwordless: a magic link from the outbox signs in, and so does a code mailed to the outbox", async () => {
  const { demo, browser } = await setup();
  const page = await browser.newPage();
  const stamp = Date.now();
  const [linked, coded] = [`link-${stamp}@example.com`, `code-${stamp}@example.com`];
  await page.goto(`${demo.baseURL}/sign-in`);
  await waitForSession(page, null);

  await page.fill("#magic-link-email", linked);
  await page.click("#magic-link button[type=submit]");
  await page.waitForSelector("#magic-link-sent:not([hidden])");
  await page.goto(`${demo.baseURL}/outbox`);
  await page.locator(`#mails li[data-to="${linked}"][data-subject="Your sign-in link"] a`).click();
  await page.waitForURL(`${demo.baseURL}/sign-in`);
  await waitForSession(page, linked);
  await page.click("#sign-out");
  await waitForSession(page, null);

  await page.fill("#otp-email", coded);
  await page.click("#otp-send button[type=submit]");
  await page.waitForSelector("#otp-verify:not([hidden])");
  const outbox = await browser.newPage();
  await outbox.goto(`${demo.baseURL}/outbox`);
  const mail = outbox.locator(`#mails li[data-to="${coded}"]`, { hasText: "sign-in code" });
  await mail.waitFor();
  const code = (await mail.getAttribute("data-code")) ?? "";
  expect(code).toMatch(/^\d{6}$/);
  await outbox.close();
  await page.fill("#otp-code", code === "000000" ? "111111" : "000000");
  await page.click("#otp-verify button[type=submit]");
  await page.locator("#error", { hasText: "Invalid OTP" }).waitFor();
  await page.fill("#otp-code", code);
  await page.click("#otp-verify button[type=submit]");
  await waitForSession(page, coded);
  await page.close();
}, 120_000);

it("a guest signs up and is replaced by the new account; a username signs up and signs in", async () => {
  const { demo, browser } = await setup();
  const page = await browser.newPage();
  const stamp = Date.now();
  await page.goto(`${demo.baseURL}/sign-in`);
  await waitForSession(page, null);
  await page.click("#guest button[type=submit]");
  await page.waitForFunction(() => /"isAnonymous": true/.test(document.getElementById("session")?.textContent ?? ""));
  const guest = await sessionUser(page);

  const email = `former-guest-${stamp}@example.com`;
  await page.click("nav a[href='/']");
  await waitForSession(page, guest.email);
  await signUp(page, email);
  await waitForSession(page, email);
  await expectAccounts(page, [email]);
  expect(await sessionUser(page)).not.toMatchObject({ isAnonymous: true });
  await page.click("#sign-out");
  await waitForSession(page, null);

  const name = `user_${stamp}`;
  await page.click("nav a[href='/sign-in']");
  await page.fill("#username-sign-up-name", "Username User");
  await page.fill("#username-sign-up-email", `${name}@example.com`);
  await page.fill("#username-sign-up-username", name);
  await page.fill("#username-sign-up-password", "correct horse battery");
  await page.locator("#username-available", { hasText: `${name} is available` }).waitFor();
  await page.click("#username-sign-up button[type=submit]");
  await waitForSession(page, `${name}@example.com`);
  expect(await sessionUser(page)).toMatchObject({ username: name });
  await page.click("#sign-out");
  await waitForSession(page, null);

  await page.fill("#username-sign-in-username", name);
  await page.fill("#username-sign-in-password", "not the password");
  await page.click("#username-sign-in button[type=submit]");
  await page.locator("#error", { hasText: "Invalid username or password" }).waitFor();
  await page.fill("#username-sign-in-password", "correct horse battery");
  await page.click("#username-sign-in button[type=submit]");
  await waitForSession(page, `${name}@example.com`);
  await page.close();
}, 120_000);

async function signUp(page: Page, email: string): Promise<void> {
  await page.fill("#sign-up-name", email.split("@")[0] ?? email);
  await page.fill("#sign-up-email", email);
  await page.fill("#sign-up-password", "correct horse battery");
  await page.click("#sign-up button[type=submit]");
}

interface SessionUser {
  id: string;
  email: string;
  emailVerified: boolean;
  isAnonymous?: boolean;
  username?: string;
}

/** The user object the session box shows. */
async function sessionUser(page: Page): Promise<SessionUser> {
  const session = JSON.parse((await page.textContent("#session")) ?? "null") as { user: SessionUser };
  return session.user;
}

/** Waits until the accounts list holds exactly `emails` (in any order). */
async function expectAccounts(page: Page, emails: string[]): Promise<void> {
  await page.waitForFunction(
    (expected) => {
      const shown = [...document.querySelectorAll<HTMLElement>("#accounts li")].map((li) => li.dataset.email);
      return shown.length === expected.length && expected.every((email) => shown.includes(email));
    },
    emails,
    { timeout: 10_000 },
  );
}

/** Waits until the session box shows `null`, or a session whose user has `email`. */
async function waitForSession(page: Page, email: string | null): Promise<void> {
  try {
    await page.waitForFunction(
      (expected) => {
        const text = document.getElementById("session")?.textContent ?? "";
        try {
          const session = JSON.parse(text) as { user?: { email?: string } } | null;
          return expected === null ? session === null : session?.user?.email === expected;
        } catch {
          return false;
        }
      },
      email,
      { timeout: 10_000 },
    );
  } catch (error) {
    const shown = await page.textContent("#session");
    const shownError = await page.textContent("#error");
    throw new Error(
      `session box never showed ${email ?? "null"}: session=${shown} error=${shownError}\n${demo?.output() ?? ""}`,
      { cause: error },
    );
  }
}
