import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, expect } from "vitest";
import { startDemo, type DemoProcess } from "./demo-process.js";

// The demo child process and the Chromium that the e2e tests share, and the page helpers they use.

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

/** The demo's administrator in the e2e tests (`ADMIN_EMAILS`); only the admin test signs it up. */
export const ADMIN_EMAIL = "admin@e2e.example.com";

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
// `env` adds to the demo's environment; only the first call of a test file starts it.
let started: Promise<{ demo: DemoProcess; browser: Browser }> | undefined;
export function setup(env: Record<string, string> = {}): Promise<{ demo: DemoProcess; browser: Browser }> {
  started ??= (async () => {
    expect(
      existsSync(CHROMIUM),
      `${CHROMIUM} is missing: run \`node tools/scripts/ensure-chromium.mjs\``,
    ).toBe(true);
    dataDir = mkdtempSync(join(tmpdir(), "latchkey-demo-e2e-"));
    demo = await startDemo({
      DATABASE_URL: join(dataDir, "demo.db"),
      AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123",
      ADMIN_EMAILS: ADMIN_EMAIL,
      ...env,
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    return { demo, browser };
  })();
  return started;
}

/** A new page of the shared browser, signed up as a new `<prefix>-<time>@example.com` on the Account page. */
export async function signedUpPage(prefix: string): Promise<{ demo: DemoProcess; browser: Browser; page: Page; email: string }> {
  const { demo, browser } = await setup();
  const page = await browser.newPage();
  const email = `${prefix}-${Date.now()}@example.com`;
  await page.goto(`${demo.baseURL}/`);
  await signUp(page, email);
  await waitForSession(page, email);
  return { demo, browser, page, email };
}

/** Submits the Account page's sign-in form with the password `signUp` uses. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.fill("#sign-in-email", email);
  await page.fill("#sign-in-password", "correct horse battery");
  await page.click("#sign-in button[type=submit]");
}

export async function signUp(page: Page, email: string): Promise<void> {
  await page.fill("#sign-up-name", email.split("@")[0] ?? email);
  await page.fill("#sign-up-email", email);
  await page.fill("#sign-up-password", "correct horse battery");
  await page.click("#sign-up button[type=submit]");
}

export interface SessionUser {
  id: string;
  email: string;
  emailVerified: boolean;
  isAnonymous?: boolean;
  username?: string;
  role?: string;
}

/** The user object the session box shows. */
export async function sessionUser(page: Page): Promise<SessionUser> {
  const session = JSON.parse((await page.textContent("#session")) ?? "null") as { user: SessionUser };
  return session.user;
}

/** Waits until the accounts list holds exactly `emails` (in any order). */
export async function expectAccounts(page: Page, emails: string[]): Promise<void> {
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
export async function waitForSession(page: Page, email: string | null): Promise<void> {
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
