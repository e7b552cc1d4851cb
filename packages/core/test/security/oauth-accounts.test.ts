import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BetterAuthError, type Account, type User } from "../../src/index.ts";
import { Browser } from "@latchkey/test-support";
import { BASE } from "../support/instance.ts";
import type { TestIdP } from "@latchkey/test-support";
import { AUTH, sessionOf, socialInstance, socialSignIn, startTestIdP } from "../support/social.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startTestIdP();
});
afterAll(() => idp.close());

describe("open redirects through the flow's URLs (origin checks on)", () => {
  const checks = { advanced: { disableOriginCheck: false, disableCSRFCheck: false } };

  it("refuses untrusted callbackURL, errorCallbackURL and newUserCallbackURL with 403 before any state is stored", async () => {
    const t = socialInstance(idp, checks);
    const cases: Array<[Record<string, string>, string]> = [
      [{ callbackURL: "https://evil.example/x" }, "INVALID_CALLBACK_URL"],
      [{ callbackURL: "//evil.example/x" }, "INVALID_CALLBACK_URL"],
      [{ callbackURL: "/\\evil.example" }, "INVALID_CALLBACK_URL"],
      [{ errorCallbackURL: "https://evil.example/e" }, "INVALID_ERROR_CALLBACK_URL"],
      [{ newUserCallbackURL: "https://evil.example/n" }, "INVALID_NEW_USER_CALLBACK_URL"],
    ];
    for (const [urls, code] of cases) {
      const res = await t.post("/sign-in/social", { provider: "idp", ...urls });
      expect(res.status, JSON.stringify(urls)).toBe(403);
      expect((await res.json()).code).toBe(code);
    }
    expect(t.count("verification")).toBe(0);
    const ok = await t.post("/sign-in/social", {
      provider: "idp",
      callbackURL: `${BASE}/dashboard`,
      errorCallbackURL: "/oops",
    });
    expect(ok.status).toBe(200);
  });
});

describe("account takeover through an email address", () => {
  async function victim(options = {}) {
    const t = socialInstance(idp, options);
    await t.post("/sign-up/email", {
      email: "victim@example.com",
      password: "password-1234",
      name: "Victim",
    });
    (t.store.user as User[])[0]!.emailVerified = true;
    return t;
  }

  it("an untrusted provider with an unverified email cannot sign into the existing user (unable_to_link_account)", async () => {
    const t = await victim();
    const attacker = new Browser(BASE, t.auth.handler);
    const landed = await socialSignIn(idp, attacker, "unverified-sub", { errorCallbackURL: "/oops" });
    expect(landed.pathname).toBe("/oops");
    expect(landed.searchParams.get("error")).toBe("unable_to_link_account");
    expect(await sessionOf(attacker)).toBeNull();
    expect((t.store.account as Account[]).map((a) => a.providerId)).toEqual(["credential"]);
    const token = await idp.signIdToken({
      sub: "unverified-sub",
      email: "victim@example.com",
      email_verified: false,
    });
    const direct = await attacker.post(`${AUTH}/sign-in/social`, { provider: "idp", idToken: { token } });
    expect(direct.status).toBe(401);
    expect(await direct.json()).toEqual({ code: "OAUTH_LINK_ERROR", message: "unable to link account" });
    expect(t.count("session")).toBe(1);
  });
});

describe("duplicate (providerId, accountId) rows", () => {
  it("findAccountByKey raises BetterAuthError; sign-in redirects internal_server_error to onAPIError.errorURL", async () => {
    const t = socialInstance(idp, { onAPIError: { errorURL: "/service-error" } });
    await socialSignIn(idp, t.browser, "alice-sub");
    const row = (t.store.account as Account[])[0]!;
    t.store.account!.push({ ...row, id: "duplicate-row" });
    await expect(
      t.auth.$context.internalAdapter.findAccountByKey({ providerId: "idp", accountId: "alice-sub" }),
    ).rejects.toBeInstanceOf(BetterAuthError);
    const landed = await socialSignIn(idp, new Browser(BASE, t.auth.handler), "alice-sub", {
      errorCallbackURL: "/flow-error",
    });
    expect(landed.pathname).toBe("/service-error");
    expect(landed.searchParams.get("error")).toBe("internal_server_error");
    expect(t.count("session")).toBe(1);
  });

  it("without onAPIError.errorURL the redirect goes to <baseURL>/error", async () => {
    const t = socialInstance(idp);
    await socialSignIn(idp, t.browser, "alice-sub");
    t.store.account!.push({ ...(t.store.account as Account[])[0]!, id: "duplicate-row" });
    const browser = new Browser(BASE, t.auth.handler);
    idp.login("alice-sub");
    const res = await browser.post(`${AUTH}/sign-in/social`, {
      provider: "idp",
      errorCallbackURL: "/flow-error",
    });
    const { location } = await browser.follow(((await res.json()) as { url: string }).url, {
      stopAt: (u) => u.pathname === "/api/auth/error",
    });
    expect(location).toBe(`${AUTH}/error?error=internal_server_error`);
  });

  it("an account whose user row is gone is refused (unable_to_link_account), not re-created", async () => {
    const t = socialInstance(idp);
    await socialSignIn(idp, t.browser, "alice-sub");
    t.store.user = [];
    const landed = await socialSignIn(idp, new Browser(BASE, t.auth.handler), "alice-sub", {
      errorCallbackURL: "/e",
    });
    expect(landed.searchParams.get("error")).toBe("unable_to_link_account");
    expect(t.count("user")).toBe(0);
  });
});
