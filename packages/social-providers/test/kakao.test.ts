import { describe, expect, it } from "vitest";
import { kakao } from "../src/providers/kakao.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectParams, expectSignedIn, expectSignInError } from "./support/flow-expectations.ts";
import { AUTHORIZATION_REQUEST, at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/v2/user/me" };
const ME = {
  id: 3141592653,
  connected_at: "2024-01-01T00:00:00Z",
  kakao_account: {
    profile: {
      nickname: "에이다",
      profile_image_url: "https://k.kakaocdn.example/full.jpg",
      thumbnail_image_url: "https://k.kakaocdn.example/thumb.jpg",
    },
    name: "Ada Lovelace",
    email: "ada@example.com",
    is_email_valid: true,
    is_email_verified: true,
  },
};

describe("kakao", () => {
  const fake = useFakeProvider();

  const provider = () => kakao({ ...CLIENT, prompt: "login", endpoints: at(fake, ENDPOINTS) });

  it("signs in from /v2/user/me: numeric id, nickname, profile image; no PKCE, login_hint or prompt", async () => {
    fake.on("GET /v2/user/me", { json: ME });
    const t = await providerInstance(provider(), { sqlite: true });
    const result = await signInThrough(t, "kakao", fake, { loginHint: "ada@example.com" });
    const q = result.authorize;
    expectParams(q, {
      scope: "account_email profile_image profile_nickname",
      code_challenge: null,
      login_hint: null,
      prompt: null,
    });
    expect(fake.last("/v2/user/me")!.headers.authorization).toBe("Bearer access-token-1");
    expectSignedIn(
      result,
      { providerId: "kakao", accountId: "3141592653" },
      {
        name: "에이다",
        email: "ada@example.com",
        emailVerified: true,
        image: "https://k.kakaocdn.example/full.jpg",
      },
    );
  });

  it("falls back to the account name and thumbnail; verified needs both valid and verified", async () => {
    fake.on("GET /v2/user/me", {
      json: {
        id: 7,
        kakao_account: {
          profile: { thumbnail_image_url: "https://k.example/t.jpg" },
          name: "Real Name",
          email: "r@example.com",
          is_email_valid: false,
          is_email_verified: true,
        },
      },
    });
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.user).toMatchObject({
      name: "Real Name",
      image: "https://k.example/t.jpg",
      emailVerified: false,
    });
    fake.on("GET /v2/user/me", { json: { id: 8 } });
    const bare = await provider().getUserInfo({ accessToken: "t" });
    expect(bare?.user).toMatchObject({ name: "", emailVerified: false });
    expect(bare?.user.email).toBeUndefined();
  });

  it("a response without a numeric id ends with unable_to_get_user_info; default endpoints are Kakao's", async () => {
    fake.on("GET /v2/user/me", { json: { msg: "this access token does not exist", code: -401 } });
    await expectSignInError(await providerInstance(provider()), "kakao", fake);
    const url = await kakao(CLIENT).createAuthorizationURL(AUTHORIZATION_REQUEST);
    expect(url.origin + url.pathname).toBe("https://kauth.kakao.com/oauth/authorize");
  });
});
