import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tiktok } from "../src/providers/tiktok.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
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
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof tiktok>[0]> = {}) =>
    tiktok({ ...KEYS, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with client_key, comma-joined scopes and a placeholder email (on SQLite)", async () => {
    fake.on("GET /v2/user/info/", { json: { data: { user: USER }, error: { code: "ok", message: "" } } });
    const t = await providerInstance(provider({ scope: ["user.info.basic"] }), { sqlite: true });
    try {
      const result = await signInThrough(t, "tiktok", fake, { loginHint: "a@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      const authorize = result.authorize;
      expect(authorize.get("client_key")).toBe("client-key-1");
      expect(authorize.has("client_id")).toBe(false);
      expect(authorize.get("scope")).toBe("user.info.profile,user.info.basic");
      expect(authorize.get("response_type")).toBe("code");
      expect(authorize.get("redirect_uri")).toBe("http://localhost:3000/api/auth/callback/tiktok");
      for (const absent of ["code_challenge", "login_hint", "prompt"])
        expect(authorize.has(absent)).toBe(false);

      const token = fake.last("/token")!;
      expect(token.headers.authorization).toBeUndefined();
      expect(token.form.get("client_key")).toBe("client-key-1");
      expect(token.form.get("client_secret")).toBe("client-secret-1");
      expect(token.form.has("client_id")).toBe(false);
      expect(token.form.get("grant_type")).toBe("authorization_code");
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);

      const info = fake.last("/v2/user/info/")!;
      expect(info.query.get("fields")).toBe("open_id,avatar_large_url,display_name,username");
      expect(info.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "Tik Tokker",
        email: "open-123@tiktok.placeholder.invalid",
        emailVerified: false,
        image: "https://p/a.jpg",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "tiktok", accountId: "open-123" }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("falls back to the username, then to an empty name", async () => {
    fake.on("GET /v2/user/info/", { json: { data: { user: { open_id: "o1", username: "tokker" } } } });
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user.name).toBe("tokker");
    fake.on("GET /v2/user/info/", { json: { data: { user: { open_id: "o2" } } } });
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.user).toMatchObject({ name: "", email: "o2@tiktok.placeholder.invalid" });
  });

  it("ends with unable_to_get_user_info when the profile call fails", async () => {
    fake.on("GET /v2/user/info/", { status: 401, json: { error: { code: "access_token_invalid" } } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "tiktok", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(result.session).toBeNull();
  });

  it("a token error answer fails the exchange", async () => {
    // TikTok answers errors with 200 and no access token.
    fake.tokens = {
      access_token: undefined,
      error: "invalid_grant",
      error_description: "Authorization code is expired.",
    };
    try {
      const t = await providerInstance(provider());
      const result = await signInThrough(t, "tiktok", fake);
      expect(result.location.searchParams.get("error")).toBe("invalid_code");
      expect(result.session).toBeNull();
      await expect(provider().refreshAccessToken!("r")).rejects.toMatchObject({ error: "invalid_grant" });
    } finally {
      fake.tokens = {};
    }
  });

  it("refreshes with client_key and client_secret in the form", async () => {
    fake.tokens = { access_token: "access-token-2", refresh_token: "refresh-token-2" };
    const tokens = await provider().refreshAccessToken!("refresh-token-1").finally(() => (fake.tokens = {}));
    expect(tokens).toMatchObject({ accessToken: "access-token-2", refreshToken: "refresh-token-2" });
    const token = fake.last("/token")!;
    expect(Object.fromEntries(token.form)).toEqual({
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
