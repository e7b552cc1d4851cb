import { describe, expect, it } from "vitest";
import { tiktok } from "../src/providers/tiktok.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import {
  expectParams,
  expectProfileFailure,
  expectRefresh,
  expectSignedIn,
  expectSignInError,
  expectTokenRequest,
} from "./support/flow-expectations.ts";
import { at, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/v2/user/info/" };
const KEYS = { clientKey: "client-key-1", clientSecret: "client-secret-1" };
const USER = {
  open_id: "open-123",
  display_name: "Tik Tokker",
  username: "tokker",
  avatar_large_url: "https://p/a.jpg",
};

describe("tiktok", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof tiktok>[0]> = {}) =>
    tiktok({ ...KEYS, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with client_key, comma-joined scopes and a placeholder email (on SQLite)", async () => {
    fake.on("GET /v2/user/info/", { json: { data: { user: USER }, error: { code: "ok", message: "" } } });
    const t = await providerInstance(provider({ scope: ["user.info.basic"] }), { sqlite: true });
    const result = await signInThrough(t, "tiktok", fake, { loginHint: "a@example.com" });
    const authorize = result.authorize;
    expectParams(authorize, {
      client_key: "client-key-1",
      client_id: null,
      scope: "user.info.profile,user.info.basic",
      response_type: "code",
      redirect_uri: "http://localhost:3000/api/auth/callback/tiktok",
      code_challenge: null,
      login_hint: null,
      prompt: null,
    });

    const token = fake.last("/token")!;
    expectTokenRequest(token, { pkce: true });
    expect(token.headers.authorization).toBeUndefined();
    expect(token.form.get("client_key")).toBe("client-key-1");
    expect(token.form.get("client_secret")).toBe("client-secret-1");
    expect(token.form.has("client_id")).toBe(false);
    expect(token.form.get("grant_type")).toBe("authorization_code");

    const info = fake.last("/v2/user/info/")!;
    expect(info.query.get("fields")).toBe("open_id,avatar_large_url,display_name,username");
    expect(info.headers.authorization).toBe("Bearer access-token-1");
    expectSignedIn(
      result,
      { providerId: "tiktok", accountId: "open-123" },
      {
        name: "Tik Tokker",
        email: "open-123@tiktok.placeholder.invalid",
        emailVerified: false,
        image: "https://p/a.jpg",
      },
    );
  });

  it("falls back to the username, then to an empty name", async () => {
    fake.on("GET /v2/user/info/", { json: { data: { user: { open_id: "o1", username: "tokker" } } } });
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user.name).toBe("tokker");
    fake.on("GET /v2/user/info/", { json: { data: { user: { open_id: "o2" } } } });
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.user).toMatchObject({ name: "", email: "o2@tiktok.placeholder.invalid" });
  });

  it("ends with unable_to_get_user_info when the profile call fails", () =>
    expectProfileFailure(provider(), fake, "GET /v2/user/info/", {
      status: 401,
      json: { error: { code: "access_token_invalid" } },
    }));

  it("a token error answer fails the exchange", async () => {
    // TikTok answers errors with 200 and no access token.
    fake.tokens = {
      access_token: undefined,
      error: "invalid_grant",
      error_description: "Authorization code is expired.",
    };
    const t = await providerInstance(provider());
    await expectSignInError(t, "tiktok", fake, "invalid_code");
    await expect(provider().refreshAccessToken!("r")).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("refreshes with client_key and client_secret in the form", async () => {
    fake.tokens = { access_token: "access-token-2", refresh_token: "refresh-token-2" };
    const { tokens, request } = await expectRefresh(provider(), fake, {
      auth: "post",
      accessToken: "access-token-2",
    });
    expect(tokens.refreshToken).toBe("refresh-token-2");
    expect(Object.fromEntries(request.form)).toEqual({
      grant_type: "refresh_token",
      refresh_token: "refresh-token-1",
      client_key: "client-key-1",
      client_secret: "client-secret-1",
    });
  });

  it("refuses a configuration without a client key", () => {
    expect(() => tiktok({ clientSecret: "s" } as Parameters<typeof tiktok>[0])).toThrow(TypeError);
  });
});
