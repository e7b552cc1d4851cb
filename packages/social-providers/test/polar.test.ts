import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { polar } from "../src/providers/polar.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/v1/oauth2/userinfo" };
const PROFILE = {
  id: "polar-user-1",
  email: "polar@example.com",
  username: "polarbear",
  public_name: "Polar Bear",
  avatar_url: "https://polar/a.png",
  email_verified: true,
};

describe("polar", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof polar>[0]> = {}) =>
    polar({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE and the prompt option (on SQLite)", async () => {
    fake.on("GET /v1/oauth2/userinfo", { json: PROFILE });
    const t = await providerInstance(provider({ prompt: "consent" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "polar", fake, { loginHint: "polar@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("scope")).toBe("openid profile email");
      expect(result.authorize.get("code_challenge_method")).toBe("S256");
      expect(result.authorize.get("prompt")).toBe("consent");
      expect(result.authorize.has("login_hint")).toBe(false);
      const token = fake.last("/token")!;
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      expect(fake.last("/v1/oauth2/userinfo")!.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "Polar Bear",
        email: "polar@example.com",
        emailVerified: true,
        image: "https://polar/a.png",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "polar", accountId: "polar-user-1" }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("falls back to the username; an unstated verification is unverified", async () => {
    fake.on("GET /v1/oauth2/userinfo", {
      json: { ...PROFILE, public_name: undefined, email_verified: undefined },
    });
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user).toMatchObject({
      name: "polarbear",
      emailVerified: false,
    });
  });

  it("ends with unable_to_get_user_info when the profile call fails", async () => {
    fake.on("GET /v1/oauth2/userinfo", { status: 401, json: { error: "invalid_token" } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "polar", fake);
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
