import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { huggingface } from "../src/providers/huggingface.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/oauth/userinfo" };
const PROFILE = {
  sub: "62f0b1c3d4",
  name: "Hug Face",
  preferred_username: "hugger",
  picture: "https://hf/a.png",
  email: "hug@example.com",
  email_verified: true,
};

describe("huggingface", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof huggingface>[0]> = {}) =>
    huggingface({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE and the secret in the form (on SQLite)", async () => {
    fake.on("GET /oauth/userinfo", { json: PROFILE });
    const t = await providerInstance(provider({ prompt: "consent" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "huggingface", fake, { loginHint: "hug@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("scope")).toBe("openid profile email");
      expect(result.authorize.get("code_challenge_method")).toBe("S256");
      expect(result.authorize.has("login_hint")).toBe(false);
      expect(result.authorize.has("prompt")).toBe(false);
      const token = fake.last("/token")!;
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      expect(fake.last("/oauth/userinfo")!.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "Hug Face",
        email: "hug@example.com",
        emailVerified: true,
        image: "https://hf/a.png",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "huggingface", accountId: "62f0b1c3d4" }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("falls back to the username; an unstated verification is unverified", async () => {
    fake.on("GET /oauth/userinfo", { json: { ...PROFILE, name: undefined, email_verified: undefined } });
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.user).toMatchObject({ name: "hugger", emailVerified: false });
  });

  it("ends with unable_to_get_user_info when the profile call fails", async () => {
    fake.on("GET /oauth/userinfo", { status: 401, json: { error: "invalid_token" } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "huggingface", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(result.session).toBeNull();
  });

  it("refreshes with the secret in the form", async () => {
    const tokens = await provider().refreshAccessToken!("refresh-token-1");
    expect(tokens.accessToken).toBe("access-token-1");
    const token = fake.last("/token")!;
    expect(token.form.get("grant_type")).toBe("refresh_token");
    expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
  });
});
