import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spotify } from "../src/providers/spotify.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/v1/me" };
const PROFILE = {
  id: "wizzler",
  display_name: "Wizzler",
  email: "wizzler@example.com",
  images: [{ url: "https://i.scdn.co/1.jpg", height: 300, width: 300 }, { url: "https://i.scdn.co/2.jpg" }],
};

describe("spotify", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof spotify>[0]> = {}) =>
    spotify({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE and the secret in the form (on SQLite)", async () => {
    fake.on("GET /v1/me", { json: PROFILE });
    const t = await providerInstance(provider({ prompt: "login" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "spotify", fake, { loginHint: "wizzler@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("scope")).toBe("user-read-email");
      expect(result.authorize.get("code_challenge_method")).toBe("S256");
      expect(result.authorize.has("login_hint")).toBe(false);
      expect(result.authorize.has("prompt")).toBe(false);
      const token = fake.last("/token")!;
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(fake.last("/v1/me")!.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "Wizzler",
        email: "wizzler@example.com",
        emailVerified: false,
        image: "https://i.scdn.co/1.jpg",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "spotify", accountId: "wizzler" }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("a profile without images or display name has no image and an empty name", async () => {
    fake.on("GET /v1/me", { json: { ...PROFILE, display_name: null, images: [] } });
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.user).toMatchObject({ name: "", image: undefined });
  });

  it("ends with unable_to_get_user_info when the profile call fails", async () => {
    fake.on("GET /v1/me", { status: 401, json: { error: { status: 401, message: "Invalid access token" } } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "spotify", fake);
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
