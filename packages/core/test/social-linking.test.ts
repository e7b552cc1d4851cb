import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Account, LatchkeyOptions, User } from "../src/index.ts";
import { Browser } from "@latchkey/test-support";
import { BASE } from "./support/instance.ts";
import type { TestIdP } from "@latchkey/test-support";
import { AUTH, sessionOf, socialInstance, socialSignIn, startTestIdP } from "./support/social.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startTestIdP();
});
afterAll(() => idp.close());

const accountsOf = (store: Record<string, unknown[]>) => (store.account ?? []) as Account[];

/** A password user signed in at the app, email verified unless told otherwise. */
async function passwordUser(
  options: Partial<LatchkeyOptions> = {},
  email = "bob@example.com",
  verified = true,
) {
  const t = socialInstance(idp, options);
  const res = await t.browser.post(`${AUTH}/sign-up/email`, {
    email,
    password: "password-1234",
    name: "Local",
  });
  expect(res.status).toBe(200);
  const user = (t.store.user as User[])[0]!;
  user.emailVerified = verified;
  return { ...t, userId: user.id };
}

describe("POST /link-social (redirect flow)", () => {
  it("links the IdP account to the signed-in user and lands on callbackURL; no new session", async () => {
    const t = await passwordUser();
    const landed = await socialSignIn(
      idp,
      t.browser,
      "bob-sub",
      { callbackURL: "/settings" },
      {},
      "/link-social",
    );
    expect(landed.href).toBe(`${BASE}/settings`);
    const oauth = accountsOf(t.store).find((a) => a.providerId === "idp")!;
    expect(oauth).toMatchObject({ userId: t.userId, accountId: "bob-sub" });
    expect(oauth.scope!.split(",").sort()).toEqual(["email", "openid", "profile"]);
    expect(t.count("session")).toBe(1);
  });

  it("linking again merges the new scopes into the stored ones", async () => {
    const t = await passwordUser();
    await socialSignIn(idp, t.browser, "bob-sub", {}, {}, "/link-social");
    const row = () => accountsOf(t.store).find((a) => a.providerId === "idp")!;
    row().scope = "openid,legacy";
    await socialSignIn(idp, t.browser, "bob-sub", {}, {}, "/link-social");
    // Stored order first, new scopes appended, no duplicates.
    expect(row().scope!.startsWith("openid,legacy,")).toBe(true);
    expect(row().scope!.split(",").sort()).toEqual(["email", "legacy", "openid", "profile"]);
    expect(accountsOf(t.store).filter((a) => a.providerId === "idp")).toHaveLength(1);
  });

  it("a different email: email_does_not_match, unless allowDifferentEmails", async () => {
    const t = await passwordUser({}, "carol@example.com");
    const refused = await socialSignIn(
      idp,
      t.browser,
      "bob-sub",
      { errorCallbackURL: "/link-error" },
      {},
      "/link-social",
    );
    expect(refused.pathname).toBe("/link-error");
    expect(refused.searchParams.get("error")).toBe("email_does_not_match");
    expect(accountsOf(t.store)).toHaveLength(1);
    const allowed = await passwordUser(
      { account: { accountLinking: { allowDifferentEmails: true } } },
      "carol@example.com",
    );
    const landed = await socialSignIn(idp, allowed.browser, "bob-sub", {}, {}, "/link-social");
    expect(landed.pathname).toBe("/dashboard");
    expect(accountsOf(allowed.store)).toHaveLength(2);
  });

  it("an account another user owns: account_already_linked_to_different_user", async () => {
    const t = await passwordUser(
      { account: { accountLinking: { allowDifferentEmails: true } } },
      "carol@example.com",
    );
    // Bob signs in with the IdP first (another browser): the IdP account becomes his.
    await socialSignIn(idp, new Browser(BASE, t.auth.handler), "bob-sub");
    const landed = await socialSignIn(idp, t.browser, "bob-sub", {}, {}, "/link-social");
    expect(landed.searchParams.get("error")).toBe("account_already_linked_to_different_user");
  });

  it("needs a session (401) and refuses an unverified email from an untrusted provider", async () => {
    const t = await passwordUser({}, "victim@example.com");
    const anonymous = await t.post("/link-social", { provider: "idp", callbackURL: "/x" });
    expect(anonymous.status).toBe(401);
    const refused = await socialSignIn(idp, t.browser, "unverified-sub", {}, {}, "/link-social");
    expect(refused.searchParams.get("error")).toBe("unable_to_link_account");
    expect(accountsOf(t.store)).toHaveLength(1);
  });
});

describe("POST /link-social with an idToken", () => {
  it("links at once; the same account again updates it; another user's account is 409 SOCIAL_ACCOUNT_ALREADY_LINKED", async () => {
    const t = await passwordUser({ account: { accountLinking: { updateUserInfoOnLink: true } } });
    const token = await idp.signIdToken({
      sub: "bob-sub",
      email: "bob@example.com",
      email_verified: true,
      name: "Bob IdP",
    });
    const res = await t.browser.post(`${AUTH}/link-social`, { provider: "idp", idToken: { token } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: "", status: true, redirect: false });
    expect(accountsOf(t.store).find((a) => a.providerId === "idp")).toMatchObject({
      accountId: "bob-sub",
      userId: t.userId,
      idToken: token,
    });
    expect((t.store.user as User[])[0]!.name).toBe("Bob IdP");
    const again = await t.browser.post(`${AUTH}/link-social`, { provider: "idp", idToken: { token } });
    expect(again.status).toBe(200);
    expect(accountsOf(t.store)).toHaveLength(2);

    const other = await passwordUser({}, "carol@example.com");
    const taken = await idp.signIdToken({ sub: "bob-sub", email: "carol@example.com", email_verified: true });
    other.store.account!.push({
      ...accountsOf(t.store).find((a) => a.providerId === "idp")!,
      id: "foreign",
      userId: "someone-else",
    });
    const conflict = await other.browser.post(`${AUTH}/link-social`, {
      provider: "idp",
      idToken: { token: taken },
    });
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({
      code: "SOCIAL_ACCOUNT_ALREADY_LINKED",
      message: "Social account already linked",
    });
  });

  it("refuses an unverified untrusted email (401 LINKING_NOT_ALLOWED) and a different email (401 LINKING_DIFFERENT_EMAILS_NOT_ALLOWED)", async () => {
    const t = await passwordUser();
    const unverified = await idp.signIdToken({
      sub: "bob-sub",
      email: "bob@example.com",
      email_verified: false,
    });
    const res = await t.browser.post(`${AUTH}/link-social`, {
      provider: "idp",
      idToken: { token: unverified },
    });
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe("LINKING_NOT_ALLOWED");
    const different = await idp.signIdToken({ sub: "x-sub", email: "x@example.com", email_verified: true });
    const res2 = await t.browser.post(`${AUTH}/link-social`, {
      provider: "idp",
      idToken: { token: different },
    });
    expect(res2.status).toBe(401);
    expect((await res2.json()).code).toBe("LINKING_DIFFERENT_EMAILS_NOT_ALLOWED");
    expect(accountsOf(t.store)).toHaveLength(1);
  });
});

describe("implicit linking on sign-in (account.accountLinking)", () => {
  it("a verified provider email joins the existing verified user; updateUserInfoOnLink copies the name", async () => {
    const t = await passwordUser({ account: { accountLinking: { updateUserInfoOnLink: true } } });
    const browser = new Browser(BASE, t.auth.handler);
    await socialSignIn(idp, browser, "bob-sub");
    expect((await sessionOf(browser))!.user.id).toBe(t.userId);
    expect(
      accountsOf(t.store)
        .map((a) => a.providerId)
        .sort(),
    ).toEqual(["credential", "idp"]);
    expect((t.store.user as User[])[0]!.name).toBe("Bob");
  });

  it("refused (unable_to_link_account) when disabled, implicit linking is off, or the local email is unverified", async () => {
    for (const options of [
      { account: { accountLinking: { enabled: false } } },
      { account: { accountLinking: { disableImplicitLinking: true } } },
    ]) {
      const t = await passwordUser(options);
      const landed = await socialSignIn(idp, new Browser(BASE, t.auth.handler), "bob-sub", {
        errorCallbackURL: "/e",
      });
      expect(landed.searchParams.get("error")).toBe("unable_to_link_account");
      expect(accountsOf(t.store)).toHaveLength(1);
    }
    const unverifiedLocal = await passwordUser({}, "bob@example.com", false);
    const landed = await socialSignIn(idp, new Browser(BASE, unverifiedLocal.auth.handler), "bob-sub", {
      errorCallbackURL: "/e",
    });
    expect(landed.searchParams.get("error")).toBe("unable_to_link_account");
    const relaxed = await passwordUser(
      { account: { accountLinking: { requireLocalEmailVerified: false } } },
      "bob@example.com",
      false,
    );
    const ok = await socialSignIn(idp, new Browser(BASE, relaxed.auth.handler), "bob-sub");
    expect(ok.pathname).toBe("/dashboard");
    // The provider verified the address the user already had: the user's email is now verified.
    expect((relaxed.store.user as User[])[0]!.emailVerified).toBe(true);
  });

  it("a trusted provider links even an unverified provider email", async () => {
    const t = await passwordUser(
      { account: { accountLinking: { trustedProviders: ["idp"] } } },
      "victim@example.com",
    );
    const landed = await socialSignIn(idp, new Browser(BASE, t.auth.handler), "unverified-sub");
    expect(landed.pathname).toBe("/dashboard");
    expect(accountsOf(t.store)).toHaveLength(2);
  });
});
