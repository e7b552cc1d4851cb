import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestIdP } from "@latchkey/test-support";
import {
  deployments,
  PREVIEW,
  PREVIEW_AUTH,
  PROD,
  PROD_AUTH,
  runToCompletion,
  sessionAt,
  startAtPreview,
  startProxyIdP,
  type Deployments,
} from "./support/deployments.ts";

let idp: TestIdP;
let t: Deployments;
beforeAll(async () => {
  idp = await startProxyIdP();
});
afterAll(() => idp.close());
afterEach(() => t?.close());

async function signUpAtPreview(email: string): Promise<string> {
  const res = await t.browser.post(`${PREVIEW_AUTH}/sign-up/email`, {
    email,
    password: "correct horse battery",
    name: "Local",
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { user: { id: string } }).user.id;
}

describe("/link-social through the proxy", () => {
  it("links the provider account to the signed-in preview user and lands on callbackURL", async () => {
    t = await deployments(idp);
    const userId = await signUpAtPreview("bob@example.com");
    const { completion } = await runToCompletion(
      idp,
      t.browser,
      "bob-sub",
      { callbackURL: "/settings" },
      "/link-social",
    );
    expect(completion.pathname).toBe("/api/auth/callback/idp/oauth-proxy");
    const done = await t.browser.send(completion.href);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/settings");
    const accounts = t.rows<{ providerId: string; accountId: string; userId: string }>("account");
    expect(accounts.find((a) => a.providerId === "idp")).toMatchObject({ accountId: "bob-sub", userId });
    expect(t.rows("user")).toHaveLength(1);
  });

  it("a provider email other than the user's: email_does_not_match at the flow's error URL", async () => {
    t = await deployments(idp);
    await signUpAtPreview("bob@example.com");
    const { completion } = await runToCompletion(
      idp,
      t.browser,
      "carol-sub",
      { callbackURL: "/settings", errorCallbackURL: "/settings/error" },
      "/link-social",
    );
    const done = await t.browser.send(completion.href);
    expect(done.headers.get("location")).toBe("/settings/error?error=email_does_not_match");
    expect(t.rows<{ providerId: string }>("account").some((a) => a.providerId === "idp")).toBe(false);
  });
});

describe("GET /oauth-proxy-callback (deprecated)", () => {
  it("completes the same payload without naming a provider", async () => {
    t = await deployments(idp);
    const { completion } = await runToCompletion(idp, t.browser, "alice-sub");
    const legacy = new URL(`${PREVIEW_AUTH}/oauth-proxy-callback${completion.search}`);
    const done = await t.browser.send(legacy.href);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/dashboard");
    expect((await sessionAt(t.browser, PREVIEW))?.user.email).toBe("alice@example.com");
  });

  it("answers 400 without callbackURL and 404 to POST", async () => {
    t = await deployments(idp);
    const missing = await t.browser.send(`${PREVIEW_AUTH}/oauth-proxy-callback?profile=00`);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { code: string }).code).toBe("VALIDATION_ERROR");
    const post = await t.browser.post(`${PREVIEW_AUTH}/oauth-proxy-callback?callbackURL=/`, {});
    expect(post.status).toBe(404);
  });
});

describe("when the proxy stands aside", () => {
  it("x-skip-oauth-proxy: the preview's own redirect URI and a plain state; the flow ends on the preview directly", async () => {
    t = await deployments(idp);
    idp.login("alice-sub");
    const url = new URL(
      await startAtPreview(t.browser, {}, "/sign-in/social", { "x-skip-oauth-proxy": "1" }),
    );
    expect(url.searchParams.get("redirect_uri")).toBe(`${PREVIEW_AUTH}/callback/idp`);
    expect(url.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const { location, hops } = await t.browser.follow(url.href);
    expect(location).toBe(`${PREVIEW}/dashboard`);
    expect(hops.some((h) => h.startsWith(PROD))).toBe(false);
    expect((await sessionAt(t.browser, PREVIEW))?.user.email).toBe("alice@example.com");
  });

  it("an empty x-skip-oauth-proxy header does not count (reference)", async () => {
    t = await deployments(idp);
    const url = new URL(await startAtPreview(t.browser, {}, "/sign-in/social", { "x-skip-oauth-proxy": "" }));
    expect(url.searchParams.get("redirect_uri")).toBe(`${PROD_AUTH}/callback/idp`);
  });

  it("on production itself: no proxy, the ordinary flow", async () => {
    t = await deployments(idp);
    const browser = t.newBrowser();
    idp.login("alice-sub");
    const res = await browser.post(`${PROD_AUTH}/sign-in/social`, { provider: "idp", callbackURL: "/home" });
    const url = new URL(((await res.json()) as { url: string }).url);
    expect(url.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const { location } = await browser.follow(url.href, {
      stopAt: (u) => u.origin === PROD && !u.pathname.startsWith("/api/auth"),
    });
    expect(location).toBe(`${PROD}/home`);
    expect((await sessionAt(browser, PROD))?.user.email).toBe("alice@example.com");
  });

  it("an ID-token sign-in is left alone (no redirect flow to proxy)", async () => {
    t = await deployments(idp);
    const res = await t.browser.post(`${PREVIEW_AUTH}/sign-in/social`, {
      provider: "idp",
      idToken: { token: "not-a-jwt" },
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe("INVALID_TOKEN");
  });
});

// Where production's callback sends the browser: the first hop past the callback itself.
const afterCallback = (u: URL): boolean => u.origin === PROD && u.pathname !== "/api/auth/callback/idp";

describe("same-origin collapse", () => {
  it("a callback on production whose completion URL is production's own goes straight to the final URL", async () => {
    t = await deployments(idp);
    const browser = t.newBrowser();
    idp.login("alice-sub");
    const res = await browser.post(
      `${PROD_AUTH}/sign-in/social`,
      { provider: "idp", callbackURL: `${PROD_AUTH}/callback/idp/oauth-proxy?callbackURL=%2Fhome` },
      { "x-skip-oauth-proxy": "1" },
    );
    const url = ((await res.json()) as { url: string }).url;
    const { location, response } = await browser.follow(url, { stopAt: afterCallback });
    expect(response.status).toBe(302);
    expect(location).toBe(`${PROD}/home`);
    expect((await sessionAt(browser, PROD))?.user.email).toBe("alice@example.com");
  });

  it("is not done for an untrusted inner URL (it stays on the completion route, which refuses it)", async () => {
    t = await deployments(idp, {
      shared: { advanced: { disableOriginCheck: false, disableCSRFCheck: true } },
    });
    const browser = t.newBrowser();
    idp.login("alice-sub");
    const res = await browser.post(
      `${PROD_AUTH}/sign-in/social`,
      {
        provider: "idp",
        callbackURL: `${PROD_AUTH}/callback/idp/oauth-proxy?callbackURL=https%3A%2F%2Fevil.test%2F`,
      },
      { "x-skip-oauth-proxy": "1" },
    );
    expect(res.status).toBe(200);
    const url = ((await res.json()) as { url: string }).url;
    const { location } = await browser.follow(url, { stopAt: afterCallback });
    expect(location).toBe(`${PROD_AUTH}/callback/idp/oauth-proxy?callbackURL=https%3A%2F%2Fevil.test%2F`);
    const refused = await browser.send(location);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe("INVALID_CALLBACK_URL");
  });
});
