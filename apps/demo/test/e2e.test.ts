import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

// Setup happens inside the test, not in beforeAll: a setup failure there would report the test
// as skipped, and a missing browser or a demo that does not start must count as a failure.
it("signs up, signs out, signs in, and shows the server's message for a wrong password", async () => {
  expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: run \`node tools/scripts/ensure-chromium.mjs\``).toBe(
    true,
  );
  dataDir = mkdtempSync(join(tmpdir(), "latchkey-demo-e2e-"));
  demo = await startDemo({
    DATABASE_URL: join(dataDir, "demo.db"),
    AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123",
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
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
