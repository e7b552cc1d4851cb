import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, expect, it } from "vitest";
import { captchaWidgetScript } from "../src/pages/captcha-widget.js";
import { setup, signIn, signUp, waitForSession } from "./e2e-browser.js";

// The captcha turned on through CAPTCHA_*: Cloudflare Turnstile's siteverify is a stub on
// 127.0.0.1 (the outside world), and the widget script the page loads from Cloudflare is served
// by the test: it "solves" at once and hands the page a token, as the real managed widget does.

const SECRET = "captcha-e2e-secret";
let siteVerify: Server | undefined;
afterAll(() => new Promise<void>((done) => (siteVerify ? siteVerify.close(() => done()) : done())));

/** Turnstile's siteverify: accepts the tokens in `good` (each once) sent with {@link SECRET}. */
async function startSiteVerify(): Promise<{ url: string; good: Set<string>; seen: string[] }> {
  const good = new Set<string>();
  const seen: string[] = [];
  siteVerify = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const { secret, response } = JSON.parse(body) as { secret: string; response: string };
      seen.push(response);
      const success = secret === SECRET && good.delete(response);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ success, "error-codes": success ? [] : ["invalid-input-response"] }));
    });
  });
  await new Promise<void>((done) => siteVerify!.listen(0, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${(siteVerify.address() as AddressInfo).port}/siteverify`, good, seen };
}

// The stand-in widget: a token for the container's callback now, and a new one on each reset.
const FAKE_TURNSTILE = `
let n = 0;
const solve = () => {
  const container = document.querySelector(".cf-turnstile");
  window[container.dataset.callback]("token-" + (++n) + "-" + container.dataset.sitekey);
};
window.turnstile = { reset: solve };
solve();
`;

it("captcha: with CAPTCHA_* set, sign-up and sign-in carry the widget's token; a refused or missing token is refused", async () => {
  const verify = await startSiteVerify();
  const { demo, browser } = await setup({
    CAPTCHA_PROVIDER: "cloudflare-turnstile",
    CAPTCHA_SECRET_KEY: SECRET,
    CAPTCHA_SITE_KEY: "site-key-e2e",
    CAPTCHA_SITEVERIFY_URL: verify.url,
  });
  const page = await browser.newPage();
  await page.route(captchaWidgetScript("cloudflare-turnstile"), (route) =>
    route.fulfill({ contentType: "text/javascript", body: FAKE_TURNSTILE }),
  );
  const email = `captcha-${Date.now()}@example.com`;
  await page.goto(`${demo.baseURL}/`);
  await page.waitForFunction(() => (window as unknown as { demoCaptcha: { token: string | null } }).demoCaptcha.token !== null);

  verify.good.add("token-1-site-key-e2e");
  await signUp(page, email);
  await waitForSession(page, email);
  expect(verify.seen).toEqual(["token-1-site-key-e2e"]);
  await page.click("#sign-out");
  await waitForSession(page, null);

  // The widget was reset after its token was used: the next token is new, and siteverify refuses it.
  await signIn(page, email);
  await page.locator("#error", { hasText: "Captcha verification failed" }).waitFor();
  expect(verify.seen).toEqual(["token-1-site-key-e2e", "token-2-site-key-e2e"]);
  verify.good.add("token-3-site-key-e2e");
  await page.click("#sign-in button[type=submit]");
  await waitForSession(page, email);

  // Without the header the guarded routes answer 400 before reading the body.
  const bare = await fetch(`${demo.baseURL}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: demo.baseURL },
    body: JSON.stringify({ email, password: "correct horse battery" }),
  });
  expect(bare.status).toBe(400);
  expect(await bare.json()).toMatchObject({ code: "MISSING_RESPONSE" });
  expect(verify.seen).toHaveLength(3);
  await page.close();
}, 120_000);
