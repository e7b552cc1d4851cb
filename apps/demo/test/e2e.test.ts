import { join } from "node:path";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { addVirtualAuthenticator } from "@latchkey/test-support";
import { expect, it } from "vitest";
import {
  ADMIN_EMAIL,
  expectAccounts,
  sessionUser,
  setup,
  signedUpPage,
  signIn,
  signUp,
  waitForSession,
} from "./e2e-browser.js";
import { totpGenerator } from "./totp.js";

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

it("two-factor: enrols with a QR code, signs in with a TOTP code, a backup code and a trusted device, disables it", async () => {
  const { demo, page, email } = await signedUpPage("totp");

  await page.click("nav a[href='/security']");
  await page.locator("#tf-status", { hasText: "off" }).waitFor();
  await page.fill("#tf-enable-password", "not the password");
  await page.click("#tf-enable button[type=submit]");
  await page.locator("#error", { hasText: "Invalid password" }).waitFor();
  await page.fill("#tf-enable-password", "correct horse battery");
  await page.click("#tf-enable button[type=submit]");
  await page.waitForSelector("#tf-setup:not([hidden])");
  await page.waitForFunction(() => (document.getElementById("tf-qr") as HTMLImageElement).naturalWidth > 0);
  expect(await page.getAttribute("#tf-qr", "src")).toMatch(/^data:image\/png;base64,/);
  const uri = new URL((await page.textContent("#tf-uri")) ?? "");
  expect(uri.protocol).toBe("otpauth:");
  expect(uri.searchParams.get("issuer")).toBe("Latchkey demo");
  const totp = totpGenerator(uri.searchParams.get("secret") ?? "");
  const backupCodes = await page.locator("#tf-backup-codes li").allTextContents();
  expect(backupCodes).toHaveLength(10);

  await page.fill("#tf-verify-code", await totp.next());
  await page.click("#tf-verify button[type=submit]");
  await page.locator("#tf-status", { hasText: "on" }).waitFor();
  expect(await page.isHidden("#error")).toBe(true);

  // Each sign-in stops at the challenge page until a code is given.
  const signInToChallenge = async (): Promise<void> => {
    await page.goto(`${demo.baseURL}/`);
    await waitForSession(page, email);
    await page.click("#sign-out");
    await waitForSession(page, null);
    await signIn(page, email);
    await page.waitForURL(`${demo.baseURL}/two-factor`);
  };
  await signInToChallenge();
  await page.fill("#tf-totp-code", "000000");
  await page.click("#tf-totp button[type=submit]");
  await page.locator("#error", { hasText: "Invalid code" }).waitFor();
  await page.fill("#tf-totp-code", await totp.next());
  await page.click("#tf-totp button[type=submit]");
  await page.waitForURL(`${demo.baseURL}/`);
  await waitForSession(page, email);

  await signInToChallenge();
  await page.fill("#tf-backup-code", backupCodes[0]!);
  await page.click("#tf-backup button[type=submit]");
  await page.waitForURL(`${demo.baseURL}/`);
  await waitForSession(page, email);

  // A used backup code is refused.
  await signInToChallenge();
  await page.fill("#tf-backup-code", backupCodes[0]!);
  await page.click("#tf-backup button[type=submit]");
  await page.locator("#error", { hasText: "Invalid backup code" }).waitFor();

  // Trusting the device: the next sign-in skips the challenge.
  await page.check("#tf-trust");
  await page.fill("#tf-totp-code", await totp.next());
  await page.click("#tf-totp button[type=submit]");
  await page.waitForURL(`${demo.baseURL}/`);
  await waitForSession(page, email);
  await page.click("#sign-out");
  await waitForSession(page, null);
  await signIn(page, email);
  await waitForSession(page, email);
  expect(page.url()).toBe(`${demo.baseURL}/`);

  await page.click("nav a[href='/security']");
  await page.fill("#tf-disable-password", "correct horse battery");
  await page.click("#tf-disable button[type=submit]");
  await page.locator("#tf-status", { hasText: "off" }).waitFor();
  await page.close();
}, 120_000);

it("passkeys: registers one with Chromium's virtual authenticator and signs in with it", async () => {
  const { demo, page, email } = await signedUpPage("passkey");
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);

  await page.click("nav a[href='/security']");
  await page.waitForSelector("#signed-in:not([hidden])");
  await page.fill("#passkey-name", "Chromium");
  await page.click("#add-passkey button[type=submit]");
  await page.locator('#passkeys li[data-name="Chromium"]').waitFor();
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);

  await page.click("nav a[href='/sign-in']");
  await waitForSession(page, email);
  await page.click("#sign-out");
  await waitForSession(page, null);
  await page.click("#passkey-sign-in button[type=submit]");
  await waitForSession(page, email);
  expect(await page.isHidden("#error")).toBe(true);
  const after = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(after.credentials[0]!.signCount).toBeGreaterThan(credentials[0]!.signCount);

  await page.goto(`${demo.baseURL}/security`);
  await page.locator('#passkeys li[data-name="Chromium"] button', { hasText: "Delete" }).click();
  await page.waitForFunction(() => document.querySelectorAll("#passkeys li").length === 0);
  await page.close();
}, 120_000);

it("admin: finds a user, bans and unbans them, impersonates them and stops", async () => {
  const { demo, browser, page: user, email: bob } = await signedUpPage("bob-admin");
  expect(await user.isHidden("nav a[href='/admin']")).toBe(true);
  await user.goto(`${demo.baseURL}/admin`);
  await user.waitForSelector("#not-admin:not([hidden])");

  const admin = await browser.newPage();
  await admin.goto(`${demo.baseURL}/`);
  await signUp(admin, ADMIN_EMAIL);
  await waitForSession(admin, ADMIN_EMAIL);
  expect(await sessionUser(admin)).toMatchObject({ role: "admin" });
  // The Admin link appears on the next page load.
  await admin.reload();
  await admin.click("nav a[href='/admin']");
  await admin.waitForSelector("#admin:not([hidden])");
  await admin.fill("#user-search-value", bob.split("@")[0]!);
  await admin.click("#user-search button[type=submit]");
  await admin.locator("#users-total", { hasText: /^1$/ }).waitFor();
  const row = admin.locator(`#users li[data-email="${bob}"]`);

  await admin.fill("#ban-reason", "spam");
  await row.locator("button", { hasText: "Ban" }).click();
  await admin.locator(`#users li[data-email="${bob}"][data-banned="true"]`, { hasText: "banned: spam" }).waitFor();
  await user.goto(`${demo.baseURL}/`);
  await waitForSession(user, null);
  await signIn(user, bob);
  await user.locator("#error", { hasText: "You have been banned" }).waitFor();

  await row.locator("button", { hasText: "Unban" }).click();
  await admin.locator(`#users li[data-email="${bob}"][data-banned="false"]`).waitFor();
  await user.click("#sign-in button[type=submit]");
  await waitForSession(user, bob);

  await row.locator("button", { hasText: "Impersonate" }).click();
  await admin.waitForURL(`${demo.baseURL}/`);
  await waitForSession(admin, bob);
  await admin.click("nav a[href='/admin']");
  await admin.locator("#impersonating", { hasText: bob }).waitFor();
  await admin.click("#stop-impersonating");
  await admin.waitForSelector("#admin:not([hidden])");
  expect(await admin.isHidden("#impersonating")).toBe(true);
  await admin.goto(`${demo.baseURL}/`);
  await waitForSession(admin, ADMIN_EMAIL);
  expect(await admin.isHidden("#error")).toBe(true);
  await admin.close();
  await user.close();
}, 120_000);
