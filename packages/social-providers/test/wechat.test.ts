import { describe, expect, it } from "vitest";
import { wechat } from "../src/providers/wechat.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import {
  expectParams,
  expectProfileFailure,
  expectSignedIn,
  expectSignInError,
} from "./support/flow-expectations.ts";
import { AUTH, at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = {
  authorization: "/authorize",
  token: "/sns/oauth2/access_token",
  refresh: "/sns/oauth2/refresh_token",
  userInfo: "/sns/userinfo",
};
const TOKENS = {
  access_token: "access-token-1",
  expires_in: 7200,
  refresh_token: "refresh-token-1",
  openid: "openid-1",
  scope: "snsapi_login,snsapi_userinfo",
  unionid: "unionid-1",
};
const PROFILE = {
  openid: "openid-1",
  unionid: "unionid-1",
  nickname: "微信用户",
  headimgurl: "https://wx/h.png",
};

describe("wechat", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof wechat>[0]> = {}) =>
    wechat({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with appid, GET token calls, the unionid and a placeholder email (on SQLite)", async () => {
    fake.on("GET /sns/oauth2/access_token", { json: TOKENS });
    fake.on("GET /sns/userinfo", { json: PROFILE });
    const t = await providerInstance(provider(), { sqlite: true });
    const start = await t.browser.post(`${AUTH}/sign-in/social`, { provider: "wechat", callbackURL: "/" });
    const { url } = (await start.json()) as { url: string };
    expect(new URL(url).hash).toBe("#wechat_redirect");

    const result = await signInThrough(t, "wechat", fake, { loginHint: "x@example.com" });
    const authorize = result.authorize;
    expectParams(authorize, {
      appid: CLIENT.clientId,
      client_id: null,
      scope: "snsapi_login",
      lang: "cn",
      code_challenge: null,
      login_hint: null,
      prompt: null,
    });

    const token = fake.last("/sns/oauth2/access_token")!;
    expect(token.method).toBe("GET");
    expect(Object.fromEntries(token.query)).toEqual({
      appid: CLIENT.clientId,
      secret: CLIENT.clientSecret,
      code: expect.stringMatching(/^code-\d+$/),
      grant_type: "authorization_code",
    });
    const info = fake.last("/sns/userinfo")!;
    expect(Object.fromEntries(info.query)).toEqual({
      access_token: "access-token-1",
      openid: "openid-1",
      lang: "zh_CN",
    });
    expectSignedIn(
      result,
      { providerId: "wechat", accountId: "unionid-1" },
      {
        name: "微信用户",
        email: "unionid-1@wechat.placeholder.invalid",
        emailVerified: false,
        image: "https://wx/h.png",
      },
    );
    expect(result.accounts[0]!.scopes).toEqual(["snsapi_login", "snsapi_userinfo"]);
  });

  it("uses the openid without a unionid; lang is configurable", async () => {
    const { unionid: _u, ...withoutUnion } = PROFILE;
    fake.on("GET /sns/oauth2/access_token", { json: { ...TOKENS, unionid: undefined } });
    fake.on("GET /sns/userinfo", { json: withoutUnion });
    const t = await providerInstance(provider({ lang: "en" }));
    const result = await signInThrough(t, "wechat", fake);
    expect(result.authorize.get("lang")).toBe("en");
    expect(result.session?.user).toMatchObject({ email: "openid-1@wechat.placeholder.invalid" });
    expect(result.accounts[0]).toMatchObject({ accountId: "openid-1" });
  });

  it("an errcode from the token call fails the exchange", async () => {
    fake.on("GET /sns/oauth2/access_token", { json: { errcode: 40029, errmsg: "invalid code" } });
    const t = await providerInstance(provider());
    await expectSignInError(t, "wechat", fake, "invalid_code");
  });

  it("ends with unable_to_get_user_info when the profile answers an errcode", async () => {
    fake.on("GET /sns/oauth2/access_token", { json: TOKENS });
    await expectProfileFailure(provider(), fake, "GET /sns/userinfo", {
      json: { errcode: 40003, errmsg: "invalid openid" },
    });
    // No openid in the token answer: nothing to ask with.
    expect(await provider().getUserInfo({ accessToken: "t", raw: {} })).toBeNull();
  });

  it("refreshes with a GET carrying appid but no secret", async () => {
    fake.on("GET /sns/oauth2/refresh_token", {
      json: { ...TOKENS, access_token: "access-token-2", scope: "snsapi_login" },
    });
    const tokens = await provider().refreshAccessToken!("refresh-token-1");
    expect(tokens).toMatchObject({
      accessToken: "access-token-2",
      scopes: ["snsapi_login"],
      tokenType: "Bearer",
    });
    expect(Object.fromEntries(fake.last("/sns/oauth2/refresh_token")!.query)).toEqual({
      appid: CLIENT.clientId,
      grant_type: "refresh_token",
      refresh_token: "refresh-token-1",
    });
    fake.on("GET /sns/oauth2/refresh_token", { json: { errcode: 40030, errmsg: "invalid refresh_token" } });
    await expect(provider().refreshAccessToken!("r")).rejects.toMatchObject({ error: "errcode_40030" });
  });
});
