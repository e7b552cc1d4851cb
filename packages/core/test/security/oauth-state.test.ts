import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "@latchkey/test-support";
import { BASE } from "../support/instance.ts";
import type { TestIdP } from "@latchkey/test-support";
import { AUTH, sessionOf, socialInstance, startSignIn, startTestIdP } from "../support/social.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startTestIdP();
});
afterAll(() => idp.close());

const atCallback = (url: URL) => url.pathname.startsWith("/api/auth/callback/");

/** Runs a flow up to the provider's redirect back, without calling the callback. */
async function callbackURLFor(
  browser: Browser,
  sub = "alice-sub",
  body: Record<string, unknown> = {},
): Promise<string> {
  idp.login(sub);
  const url = await startSignIn(browser, body);
  const { location } = await browser.follow(url, { stopAt: atCallback });
  return location;
}

const errorOf = (res: Response) => new URL(res.headers.get("location")!, BASE);

describe("OAuth state: CSRF, replay, expiry", () => {
  it("a callback replayed after success is refused (state_mismatch); the state is single use", async () => {
    const t = socialInstance(idp);
    const callback = await callbackURLFor(t.browser);
    const first = await t.browser.send(callback);
    expect(new URL(first.headers.get("location")!, BASE).pathname).toBe("/dashboard");
    const replay = await t.browser.send(callback);
    expect(replay.status).toBe(302);
    expect(errorOf(replay).href).toBe(`${AUTH}/error?error=state_mismatch`);
  });

  it("a callback opened in another browser (login CSRF) is refused, and burns the state", async () => {
    const t = socialInstance(idp);
    const attacker = t.browser;
    const callback = await callbackURLFor(attacker, "alice-sub", { errorCallbackURL: "/oops" });
    const victim = new Browser(BASE, t.auth.handler);
    const res = await victim.send(callback);
    // The state was readable, so the flow's own error URL is used.
    expect(errorOf(res).pathname).toBe("/oops");
    expect(errorOf(res).searchParams.get("error")).toBe("state_mismatch");
    expect(await sessionOf(victim)).toBeNull();
    expect(t.count("user")).toBe(0);
    const late = await attacker.send(callback);
    expect(errorOf(late).searchParams.get("error")).toBe("state_mismatch");
  });

  it("skipStateCookieCheck lets another browser finish the flow (cross-device)", async () => {
    const t = socialInstance(idp, { account: { skipStateCookieCheck: true } });
    const callback = await callbackURLFor(t.browser);
    const other = new Browser(BASE, t.auth.handler);
    const res = await other.send(callback);
    expect(errorOf(res).pathname).toBe("/dashboard");
  });

  it("missing state: state_not_found; unknown or expired state: state_mismatch; nothing written", async () => {
    const t = socialInstance(idp);
    const missing = await t.browser.send(`${AUTH}/callback/idp?code=abc`);
    expect(errorOf(missing).href).toBe(`${AUTH}/error?error=state_not_found`);
    const unknown = await t.browser.send(`${AUTH}/callback/idp?code=abc&state=${"a".repeat(32)}`);
    expect(errorOf(unknown).href).toBe(`${AUTH}/error?error=state_mismatch`);
    const callback = await callbackURLFor(t.browser);
    (t.store.verification![0] as { expiresAt: Date }).expiresAt = new Date(Date.now() - 1000);
    const expired = await t.browser.send(callback);
    expect(errorOf(expired).searchParams.get("error")).toBe("state_mismatch");
    expect(t.count("user")).toBe(0);
    const repeated = await t.browser.send(`${AUTH}/callback/idp?state=a&state=b`);
    expect(errorOf(repeated).href).toBe(`${AUTH}/error?error=invalid_callback_request`);
  });

  it("an expired state goes to the flow's error URL and expires the state cookie; it is burnt (reference order)", async () => {
    const t = socialInstance(idp);
    const callback = await callbackURLFor(t.browser, "alice-sub", { errorCallbackURL: "/oops" });
    const row = t.store.verification![0] as { expiresAt: Date; value: string };
    const past = Date.now() - 1000;
    row.expiresAt = new Date(past);
    row.value = JSON.stringify({ ...(JSON.parse(row.value) as object), expiresAt: past });
    expect(t.browser.appCookies().has("better-auth.state")).toBe(true);
    const expired = await t.browser.send(callback);
    expect(expired.headers.get("location")).toBe("/oops?error=state_mismatch");
    expect(expired.headers.getSetCookie()).toEqual([
      "better-auth.state=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax",
    ]);
    expect(t.count("verification")).toBe(0);
    expect(t.count("user")).toBe(0);
    // An expired state read from another browser still fails the cookie check first.
    const other = await callbackURLFor(t.browser, "alice-sub", { errorCallbackURL: "/oops" });
    (t.store.verification![0] as { expiresAt: Date }).expiresAt = new Date(past);
    const stranger = new Browser(BASE, t.auth.handler);
    const refused = await stranger.send(other);
    expect(refused.headers.get("location")).toBe("/oops?error=state_mismatch");
    expect(refused.headers.getSetCookie()).toEqual([]);
  });

  it("two concurrent callbacks with one state: exactly one signs in", async () => {
    const t = socialInstance(idp);
    const callback = await callbackURLFor(t.browser);
    const results = await Promise.all([
      t.browser.send(callback),
      t.browser.send(callback),
      t.browser.send(callback),
    ]);
    const landed = results.map((r) => errorOf(r));
    expect(landed.filter((u) => u.pathname === "/dashboard")).toHaveLength(1);
    expect(landed.filter((u) => u.searchParams.get("error") === "state_mismatch")).toHaveLength(2);
    expect(t.count("user")).toBe(1);
    expect(t.count("session")).toBe(1);
  });
});

describe("PKCE, nonce and issuer binding (real IdP)", () => {
  it("a code issued for another PKCE challenge fails the exchange: invalid_code (RFC 7636 §4.6)", async () => {
    const t = socialInstance(idp);
    idp.login("alice-sub");
    const url = new URL(await startSignIn(t.browser, { errorCallbackURL: "/oops" }));
    // An attacker swapping the challenge: the IdP binds the code to it, our verifier no longer matches.
    url.searchParams.set("code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    const { location } = await t.browser.follow(url.href);
    expect(new URL(location).searchParams.get("error")).toBe("invalid_code");
    expect(t.count("user")).toBe(0);
  });

  it("an ID token with another nonce, or none, is refused: unable_to_get_user_info", async () => {
    for (const change of [
      (u: URL) => u.searchParams.set("nonce", "x".repeat(32)),
      (u: URL) => u.searchParams.delete("nonce"),
    ]) {
      const t = socialInstance(idp);
      idp.login("alice-sub");
      const url = new URL(await startSignIn(t.browser, { errorCallbackURL: "/oops" }));
      change(url);
      const { location } = await t.browser.follow(url.href);
      expect(new URL(location).searchParams.get("error")).toBe("unable_to_get_user_info");
      expect(t.count("user")).toBe(0);
    }
  });

  it("RFC 9207: another issuer in `iss` is issuer_mismatch; a missing `iss` is issuer_missing", async () => {
    for (const [change, code] of [
      [(u: URL) => u.searchParams.set("iss", "https://evil.example"), "issuer_mismatch"],
      [(u: URL) => u.searchParams.delete("iss"), "issuer_missing"],
    ] as const) {
      const t = socialInstance(idp);
      const callback = new URL(await callbackURLFor(t.browser, "alice-sub", { errorCallbackURL: "/oops" }));
      expect(callback.searchParams.get("iss")).toBe(idp.issuer);
      change(callback);
      const res = await t.browser.send(callback.href);
      expect(errorOf(res).searchParams.get("error")).toBe(code);
      expect(t.count("user")).toBe(0);
    }
  });
});
