import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { addVirtualAuthenticator, CHROMIUM_ARGS, CHROMIUM_PATH as CHROMIUM } from "@latchkey/test-support";
import { afterAll, expect, it } from "vitest";
import { startPageServer, type PageServer } from "./e2e/server.ts";

let server: PageServer | undefined;
let browser: Browser | undefined;

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Waits until #session shows null, or a session of `email`. */
async function waitForSession(page: Page, email: string | null): Promise<void> {
  await page.waitForFunction((expected) => {
    const text = document.getElementById("session")?.textContent ?? "";
    if (!text) return false;
    const session = JSON.parse(text) as { user?: { email?: string } } | null;
    return expected === null ? session === null : session?.user?.email === expected;
  }, email);
}

// Setup inside the test: a missing browser must fail the test, not skip it.
it("registers a passkey in Chromium and signs in with it, by button and by conditional UI", async () => {
  expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: run \`node tools/scripts/ensure-chromium.mjs\``).toBe(true);
  server = await startPageServer();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
  const page = await browser.newPage();
  // Records the `mediation` of each navigator.credentials.get call, to show which request signed in.
  await page.addInitScript(() => {
    const calls: string[] = [];
    (window as unknown as { mediations: string[] }).mediations = calls;
    const get = navigator.credentials.get.bind(navigator.credentials);
    navigator.credentials.get = (options?: CredentialRequestOptions) => {
      calls.push(options?.mediation ?? "optional");
      return get(options);
    };
  });
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
  const email = "e2e-passkey@example.com";

  await page.goto(`${server.origin}/`);
  await waitForSession(page, null);
  await page.fill("#sign-up-email", email);
  await page.fill("#sign-up-password", "correct horse battery");
  await page.click("#sign-up button[type=submit]");
  await waitForSession(page, email);

  await page.fill("#passkey-name", "Chromium");
  await page.click("#add-passkey");
  await page.waitForFunction(() => document.getElementById("passkeys")?.textContent === '["Chromium"]');
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);
  const rows = await server.t.auth.$context.adapter.findMany<{ credentialID: string; transports: string; publicKey: string }>({ model: "passkey" });
  expect(rows).toHaveLength(1);
  // The credential id the browser holds is the one stored (base64url), with the browser's transports.
  expect(Buffer.from(credentials[0]!.credentialId, "base64").toString("base64url")).toBe(rows[0]!.credentialID);
  expect(rows[0]!.transports).toBe("internal");

  await page.click("#sign-out");
  await waitForSession(page, null);
  await page.click("#sign-in-passkey");
  await waitForSession(page, email);
  expect(await page.isHidden("#error")).toBe(true);
  const afterButton = (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials[0]!.signCount;

  // Conditional UI: a `mediation: "conditional"` request started on load, answered by the
  // virtual authenticator's discoverable credential.
  await page.click("#sign-out");
  await waitForSession(page, null);
  await page.goto(`${server.origin}/?autofill`);
  await page.focus("#username");
  await page.waitForFunction(() => document.getElementById("autofill-state")?.textContent !== "waiting", undefined, { timeout: 20_000 });
  expect(await page.textContent("#autofill-state")).toBe("signed in");
  expect(await page.evaluate(() => (window as unknown as { mediations: string[] }).mediations)).toEqual(["conditional"]);
  await waitForSession(page, email);
  const afterAutofill = (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials[0]!.signCount;
  const stored = await server.t.auth.$context.adapter.findMany<{ counter: number }>({ model: "passkey" });
  expect(stored[0]!.counter).toBe(afterAutofill);
  expect(afterAutofill).toBeGreaterThan(afterButton);
  await page.close();
}, 120_000);
