import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAuthMiddleware, getOAuthState } from "@latchkey/core";
import type { TestIdP } from "@latchkey/test-support";
import {
  deployments,
  PREVIEW,
  PREVIEW_AUTH,
  PROD,
  PROD_AUTH,
  readProfile,
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

describe("a sign-in started on the preview", () => {
  it("goes to the provider with production's redirect URI and an encrypted state package", async () => {
    t = await deployments(idp);
    const res = await t.browser.post(`${PREVIEW_AUTH}/sign-in/social`, {
      provider: "idp",
      callbackURL: "/dashboard",
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { url: string; redirect: boolean };
    const url = new URL(body.url);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get("redirect_uri")).toBe(`${PROD_AUTH}/callback/idp`);
    const state = url.searchParams.get("state")!;
    expect(state).toMatch(/^[0-9a-f]{200,}$/);
    // The Location header names the same proxied URL as the body.
    expect(res.headers.get("location")).toBe(body.url);
    // The stored flow's callback is the preview's completion route, keeping the original target.
    const [row] = t.rows<{ identifier: string; value: string }>("verification");
    expect(JSON.parse(row!.value).callbackURL).toBe(
      `${PREVIEW_AUTH}/callback/idp/oauth-proxy?callbackURL=%2Fdashboard`,
    );
    expect(t.browser.appCookies().has("better-auth.state")).toBe(true);
  });

  it("preview → IdP → production callback → preview completion: the session is on the preview", async () => {
    t = await deployments(idp);
    const { completion, hops } = await runToCompletion(idp, t.browser, "alice-sub", {
      newUserCallbackURL: "/welcome",
    });
    expect(hops.some((h) => h.startsWith(`${PROD_AUTH}/callback/idp?`))).toBe(true);
    expect(completion.origin + completion.pathname).toBe(`${PREVIEW_AUTH}/callback/idp/oauth-proxy`);
    expect(completion.searchParams.get("callbackURL")).toBe("/dashboard");
    // Production made no user, account or session of its own.
    expect(t.rows("user")).toHaveLength(0);
    expect(t.rows("session")).toHaveLength(0);
    const payload = await readProfile(completion);
    expect(payload).toMatchObject({
      userInfo: { email: "alice@example.com", name: "Alice", emailVerified: true, id: "alice-sub" },
      account: { providerId: "idp", accountId: "alice-sub", scope: "openid,profile,email" },
      callbackURL: "/dashboard",
      newUserURL: "/welcome",
    });
    expect(typeof (payload.account as { accessToken: unknown }).accessToken).toBe("string");

    const done = await t.browser.send(completion.href);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/welcome");
    expect(await sessionAt(t.browser, PREVIEW)).toMatchObject({
      user: { email: "alice@example.com", name: "Alice" },
    });
    expect(await sessionAt(t.browser, PROD)).toBeNull();
    const [account] = t.rows<{ providerId: string; accountId: string; accessToken: string | null }>(
      "account",
    );
    expect(account).toMatchObject({ providerId: "idp", accountId: "alice-sub" });
    expect(account!.accessToken).toBeTruthy();
    // The state was single use.
    expect(t.rows("verification")).toHaveLength(0);
  });

  it("a returning user lands on callbackURL, with the same user and account", async () => {
    t = await deployments(idp);
    const first = await runToCompletion(idp, t.browser, "bob-sub", { newUserCallbackURL: "/welcome" });
    expect((await t.browser.follow(first.completion.href)).location).toBe(`${PREVIEW}/welcome`);
    const other = t.newBrowser();
    const second = await runToCompletion(idp, other, "bob-sub", { newUserCallbackURL: "/welcome" });
    expect((await other.follow(second.completion.href)).location).toBe(`${PREVIEW}/dashboard`);
    expect(t.rows("user")).toHaveLength(1);
    expect(t.rows("account")).toHaveLength(1);
    expect((await sessionAt(other, PREVIEW))?.user.email).toBe("bob@example.com");
  });

  it("without a callbackURL the user lands on the preview's origin", async () => {
    t = await deployments(idp);
    idp.login("alice-sub");
    const url = await startAtPreview(t.browser, { callbackURL: undefined });
    const { location } = await t.browser.follow(url, {
      stopAt: (u) => u.origin === PREVIEW && !u.pathname.startsWith("/api/auth/callback/idp/"),
    });
    expect(location).toBe(`${PREVIEW}/`);
    expect((await sessionAt(t.browser, PREVIEW))?.user.email).toBe("alice@example.com");
  });

  it("a replayed completion URL finds its state used: state_mismatch, no second session", async () => {
    t = await deployments(idp);
    const { completion } = await runToCompletion(idp, t.browser, "alice-sub");
    expect((await t.browser.send(completion.href)).status).toBe(302);
    const replay = await t.browser.send(completion.href);
    expect(replay.headers.get("location")).toBe(`${PREVIEW_AUTH}/error?error=state_mismatch`);
    expect(t.rows("session")).toHaveLength(1);
  });

  it("another browser cannot use the completion URL (login CSRF): the state cookie is not its own", async () => {
    t = await deployments(idp);
    const { completion } = await runToCompletion(idp, t.browser, "alice-sub");
    const victim = t.newBrowser();
    const res = await victim.send(completion.href);
    expect(res.headers.get("location")).toBe(`${PREVIEW_AUTH}/error?error=state_mismatch`);
    expect(await sessionAt(victim, PREVIEW)).toBeNull();
    expect(t.rows("session")).toHaveLength(0);
  });

  it("the provider's error is passed on to the flow's errorCallbackURL by production", async () => {
    t = await deployments(idp);
    const url = new URL(await startAtPreview(t.browser, { errorCallbackURL: "/oops" }));
    const state = url.searchParams.get("state")!;
    const res = await t.browser.send(
      `${PROD_AUTH}/callback/idp?error=access_denied&error_description=no&state=${state}`,
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/oops?error=access_denied&error_description=no");
  });

  it("callback hooks run around the completion route, with the flow's OAuth state and the new session", async () => {
    const seen: Array<{ path: string; additional: unknown; email: unknown }> = [];
    t = await deployments(idp, {
      preview: {
        hooks: {
          after: createAuthMiddleware((ctx) => {
            if (!ctx.path.startsWith("/callback/")) return;
            seen.push({
              path: ctx.path,
              additional: getOAuthState(ctx)?.campaign,
              email: ctx.context.newSession?.user.email ?? null,
            });
          }),
        },
      },
    });
    const { completion } = await runToCompletion(idp, t.browser, "alice-sub", {
      additionalData: { campaign: "spring" },
    });
    expect((await t.browser.send(completion.href)).status).toBe(302);
    expect(seen).toEqual([
      { path: "/callback/:id/oauth-proxy", additional: "spring", email: "alice@example.com" },
    ]);
  });
});
