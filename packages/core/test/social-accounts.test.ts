import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Account, Session } from "../src/index.ts";
import type { TestIdP } from "@latchkey/test-support";
import { AUTH, socialInstance, socialSignIn, startTestIdP } from "./support/social.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startTestIdP();
});
afterAll(() => idp.close());

/** Alice signed up by password, then linked the IdP account (implicit link, verified emails). */
async function aliceWithTwoAccounts(options: Parameters<typeof socialInstance>[1] = {}) {
  const t = socialInstance(idp, options);
  const signUp = await t.browser.post(`${AUTH}/sign-up/email`, {
    email: "alice@example.com",
    password: "password-1234",
    name: "A",
  });
  expect(signUp.status).toBe(200);
  (t.store.user![0] as { emailVerified: boolean }).emailVerified = true;
  const landed = await socialSignIn(idp, t.browser, "alice-sub");
  expect(landed.pathname).toBe("/dashboard");
  const all = t.store.account as Account[];
  const oauthId = all.find((a) => a.providerId === "idp")!.id;
  const credential = all.find((a) => a.providerId === "credential")!;
  const post = (path: string, body: unknown) => t.browser.post(`${AUTH}${path}`, body);
  return {
    ...t,
    credential,
    post,
    /** The IdP account row as stored now (updates replace the stored object). */
    get oauth(): Account {
      return (t.store.account as Account[]).find((a) => a.id === oauthId)!;
    },
  };
}

describe("GET /list-accounts", () => {
  it("lists each account with its row id, provider, account id and scopes; never tokens", async () => {
    const t = await aliceWithTwoAccounts();
    const res = await t.browser.send(`${AUTH}/list-accounts`);
    expect(res.status).toBe(200);
    const list = (await res.json()) as Array<Record<string, unknown>>;
    expect(list).toHaveLength(2);
    const oauth = list.find((a) => a.providerId === "idp")!;
    expect(oauth).toMatchObject({ id: t.oauth.id, accountId: "alice-sub", userId: t.oauth.userId });
    expect((oauth.scopes as string[]).sort()).toEqual(["email", "openid", "profile"]);
    for (const row of list) {
      for (const secret of [
        "accessToken",
        "refreshToken",
        "idToken",
        "password",
        "scope",
        "accessTokenExpiresAt",
      ]) {
        expect(row).not.toHaveProperty(secret);
      }
    }
    // A row written space-separated (1.0) still reads as separate scopes.
    t.oauth.scope = "openid email";
    const again = (await (await t.browser.send(`${AUTH}/list-accounts`)).json()) as Array<{
      id: string;
      scopes: string[];
    }>;
    expect(again.find((a) => a.id === t.oauth.id)!.scopes).toEqual(["openid", "email"]);
    expect((await t.request("/list-accounts")).status).toBe(401);
  });
});

describe("POST /get-access-token, /refresh-token, GET /account-info", () => {
  it("answers the stored token, and refreshes it at the IdP once expired", async () => {
    const t = await aliceWithTwoAccounts();
    const first = await t.post("/get-access-token", { accountId: t.oauth.id });
    expect(first.status).toBe(200);
    const body = (await first.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ accessToken: t.oauth.accessToken, idToken: t.oauth.idToken });
    expect((body.scopes as string[]).sort()).toEqual(["email", "openid", "profile"]);
    const oldToken = t.oauth.accessToken;
    t.oauth.accessTokenExpiresAt = new Date(Date.now() - 1000);
    const refreshed = await t.post("/get-access-token", { accountId: t.oauth.id });
    expect(refreshed.status).toBe(200);
    const fresh = (await refreshed.json()) as { accessToken: string; accessTokenExpiresAt: string };
    expect(fresh.accessToken).not.toBe(oldToken);
    expect(new Date(fresh.accessTokenExpiresAt).getTime()).toBeGreaterThan(Date.now());
    expect(t.oauth.accessToken).toBe(fresh.accessToken);
    expect(idp.requests).toContain("POST /token");
    // The new token works at the IdP: account-info reads the profile through UserInfo.
    const info = await t.browser.send(`${AUTH}/account-info?accountId=${t.oauth.id}`);
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({
      user: { email: "alice@example.com", name: "Alice", emailVerified: true },
      data: { sub: "alice-sub" },
      account: { id: t.oauth.id, providerId: "idp", accountId: "alice-sub" },
    });
    // A stored ID token that has since expired does not block it: the profile comes from
    // UserInfo with the (valid) access token. The reference's discovery providers answer 401 here.
    const past = Math.floor(Date.now() / 1000) - 7200;
    t.oauth.idToken = await idp.signIdToken({ sub: "alice-sub", iat: past, exp: past + 60 });
    const stale = await t.browser.send(`${AUTH}/account-info?accountId=${t.oauth.id}`);
    expect(stale.status).toBe(200);
    expect(((await stale.json()) as { user: { email: string } }).user.email).toBe("alice@example.com");
  });

  it("POST /refresh-token refreshes now, keeps the stored scope, answers the row id as accountId", async () => {
    const t = await aliceWithTwoAccounts();
    t.oauth.scope = "openid,email,profile,extra";
    const res = await t.post("/refresh-token", { accountId: t.oauth.id });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      providerId: "idp",
      accountId: t.oauth.id,
      scope: "openid,email,profile,extra",
    });
    expect(body.accessToken).toBe(t.oauth.accessToken);
    expect(typeof body.refreshToken).toBe("string");
    expect(t.oauth.scope).toBe("openid,email,profile,extra");
  });

  it("refresh failures and unsupported accounts answer the reference's codes", async () => {
    const t = await aliceWithTwoAccounts();
    t.oauth.refreshToken = "not-a-valid-refresh-token";
    const bad = await t.post("/refresh-token", { accountId: t.oauth.id });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      code: "FAILED_TO_REFRESH_ACCESS_TOKEN",
      message: "Failed to refresh access token",
    });
    t.oauth.accessTokenExpiresAt = new Date(0);
    const expired = await t.post("/get-access-token", { accountId: t.oauth.id });
    expect(await expired.json()).toEqual({
      code: "FAILED_TO_GET_ACCESS_TOKEN",
      message: "Failed to get a valid access token",
    });
    t.oauth.refreshToken = null;
    expect(await (await t.post("/refresh-token", { accountId: t.oauth.id })).json()).toEqual({
      code: "REFRESH_TOKEN_NOT_FOUND",
      message: "Refresh token not found",
    });
    const credential = await t.post("/get-access-token", { accountId: t.credential.id });
    expect(await credential.json()).toEqual({
      code: "PROVIDER_NOT_SUPPORTED",
      message: "Provider credential is not supported.",
    });
    const info = await t.browser.send(`${AUTH}/account-info?accountId=${t.credential.id}`);
    expect(await info.json()).toEqual({
      code: "PROVIDER_NOT_CONFIGURED",
      message: "Account is not associated with a configured social provider.",
    });
  });

  it("selection only by accountId: providerId is 400 INVALID_BODY; useAccountCookie is ACCOUNT_NOT_FOUND; others' accounts are not found", async () => {
    const t = await aliceWithTwoAccounts();
    for (const path of ["/get-access-token", "/refresh-token", "/unlink-account"]) {
      for (const body of [{ providerId: "idp" }, { providerId: "idp", accountId: t.oauth.id }]) {
        const res = await t.post(path, body);
        expect(res.status, path).toBe(400);
        expect((await res.json()).code).toBe("INVALID_BODY");
      }
    }
    const query = await t.browser.send(`${AUTH}/account-info?providerId=idp`);
    expect((await query.json()).code).toBe("INVALID_BODY");
    for (const path of ["/get-access-token", "/refresh-token"]) {
      const res = await t.post(path, { useAccountCookie: true });
      expect(await res.json()).toEqual({ code: "ACCOUNT_NOT_FOUND", message: "Account not found" });
      expect(await (await t.post(path, {})).json()).toEqual({
        code: "VALIDATION_ERROR",
        message: "[body] Invalid input",
      });
      expect(await (await t.post(path, { accountId: "x", foo: 1 })).json()).toEqual({
        code: "VALIDATION_ERROR",
        message: '[body] Unrecognized key: "foo"',
      });
    }
    const cookieQuery = await t.browser.send(`${AUTH}/account-info?useAccountCookie=true`);
    expect(await cookieQuery.json()).toEqual({ code: "ACCOUNT_NOT_FOUND", message: "Account not found" });
    // Another user's account id is simply not one of this user's accounts.
    t.oauth.userId = "someone-else";
    expect(await (await t.post("/get-access-token", { accountId: t.oauth.id })).json()).toEqual({
      code: "ACCOUNT_NOT_FOUND",
      message: "Account not found",
    });
  });

  it("without a session: 401 with an empty body; a server call may name userId", async () => {
    const t = await aliceWithTwoAccounts();
    const res = await t.request("/get-access-token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ accountId: t.oauth.id }),
    });
    expect(res.status).toBe(401);
    expect(await res.text()).toBe("");
    const server = (await t.auth.api.getAccessToken!({
      body: { accountId: t.oauth.id, userId: t.oauth.userId },
    })) as { accessToken: string };
    expect(server.accessToken).toBe(t.oauth.accessToken);
    await expect(t.auth.api.getAccessToken!({ body: { accountId: t.oauth.id } })).rejects.toMatchObject({
      body: { code: "USER_ID_OR_SESSION_REQUIRED" },
    });
  });

  it("legacyAccountSelection re-enables providerId bodies (deprecated)", async () => {
    const t = await aliceWithTwoAccounts({ account: { legacyAccountSelection: true } });
    const res = await t.post("/get-access-token", { providerId: "idp" });
    expect(res.status).toBe(200);
    expect((await res.json()).accessToken).toBe(t.oauth.accessToken);
    const info = await t.browser.send(`${AUTH}/account-info?providerId=idp`);
    expect(info.status).toBe(200);
  });
});

describe("POST /unlink-account", () => {
  it("unlinks by row id with a fresh session; refuses the last account and a stale session", async () => {
    const t = await aliceWithTwoAccounts();
    const unknown = await t.post("/unlink-account", { accountId: "nope" });
    expect(await unknown.json()).toEqual({ code: "ACCOUNT_NOT_FOUND", message: "Account not found" });
    const sessions = t.store.session as Session[];
    const created = sessions.map((s) => s.createdAt);
    for (const s of sessions) s.createdAt = new Date(Date.now() - 2 * 86_400_000);
    const stale = await t.post("/unlink-account", { accountId: t.oauth.id });
    expect(stale.status).toBe(403);
    expect((await stale.json()).code).toBe("SESSION_NOT_FRESH");
    sessions.forEach((s, i) => (s.createdAt = created[i]!));
    const ok = await t.post("/unlink-account", { accountId: t.oauth.id });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ status: true });
    expect((t.store.account as Account[]).map((a) => a.providerId)).toEqual(["credential"]);
    const last = await t.post("/unlink-account", { accountId: t.credential.id });
    expect(last.status).toBe(400);
    expect(await last.json()).toEqual({
      code: "FAILED_TO_UNLINK_LAST_ACCOUNT",
      message: "You can't unlink your last account",
    });
    expect(await (await t.post("/unlink-account", {})).json()).toEqual({
      code: "VALIDATION_ERROR",
      message: "[body.accountId] Invalid input: expected string, received undefined",
    });
  });

  it("allowUnlinkingAll lets the last account go", async () => {
    const t = await aliceWithTwoAccounts({ account: { accountLinking: { allowUnlinkingAll: true } } });
    expect((await t.post("/unlink-account", { accountId: t.credential.id })).status).toBe(200);
    expect((await t.post("/unlink-account", { accountId: t.oauth.id })).status).toBe(200);
    expect(t.count("account")).toBe(0);
  });
});
