import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { roblox } from "../src/providers/roblox.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/oauth/v1/userinfo" };
const PROFILE = {
  sub: "1516563360",
  name: "Roblox Dev",
  nickname: "Robloxian",
  preferred_username: "robloxdev",
  picture: "https://tr/p.png",
};

describe("roblox", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof roblox>[0]> = {}) =>
    roblox({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with the default prompt, post client auth and a placeholder email (on SQLite)", async () => {
    fake.on("GET /oauth/v1/userinfo", { json: PROFILE });
    const t = await providerInstance(provider(), { sqlite: true });
    try {
      const result = await signInThrough(t, "roblox", fake, { loginHint: "x@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("scope")).toBe("openid profile");
      expect(result.authorize.get("prompt")).toBe("select_account consent");
      expect(result.authorize.has("code_challenge")).toBe(false);
      expect(result.authorize.has("login_hint")).toBe(false);
      const token = fake.last("/token")!;
      expect(token.form.get("client_id")).toBe(CLIENT.clientId);
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(token.form.has("code_verifier")).toBe(false);
      expect(token.headers.authorization).toBeUndefined();
      expect(fake.last("/oauth/v1/userinfo")!.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "Robloxian",
        email: "1516563360@roblox.placeholder.invalid",
        emailVerified: false,
        image: "https://tr/p.png",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "roblox", accountId: "1516563360" }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("a configured prompt replaces the default; the name falls back to the username, then empty", async () => {
    const url = await provider({ prompt: "login" }).createAuthorizationURL({
      state: "s",
      codeVerifier: "v".repeat(43),
      redirectURI: "http://localhost:3000/cb",
    });
    expect(url.searchParams.get("prompt")).toBe("login");
    fake.on("GET /oauth/v1/userinfo", { json: { sub: "7", preferred_username: "seven" } });
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user).toMatchObject({
      name: "seven",
      email: "7@roblox.placeholder.invalid",
    });
    fake.on("GET /oauth/v1/userinfo", { json: { sub: "8" } });
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user.name).toBe("");
  });

  it("ends with unable_to_get_user_info when the profile call fails", async () => {
    fake.on("GET /oauth/v1/userinfo", { status: 401, json: { error: "invalid_token" } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "roblox", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(result.session).toBeNull();
  });

  it("refreshes with the secret in the form", async () => {
    const tokens = await provider().refreshAccessToken!("refresh-token-1");
    expect(tokens.accessToken).toBe("access-token-1");
    const token = fake.last("/token")!;
    expect(token.form.get("grant_type")).toBe("refresh_token");
    expect(token.form.get("refresh_token")).toBe("refresh-token-1");
    expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
  });
});
