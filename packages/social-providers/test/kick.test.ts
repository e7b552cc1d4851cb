import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kick } from "../src/providers/kick.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/public/v1/users" };
const USER = {
  user_id: 123456,
  name: "kicker",
  email: "kick@example.com",
  profile_picture: "https://kick/p.webp",
};

describe("kick", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof kick>[0]> = {}) =>
    kick({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE, the first user of the list (on SQLite)", async () => {
    fake.on("GET /public/v1/users", { json: { data: [USER], message: "OK" } });
    const t = await providerInstance(provider({ prompt: "consent" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "kick", fake, { loginHint: "kick@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("scope")).toBe("user:read");
      expect(result.authorize.get("code_challenge_method")).toBe("S256");
      expect(result.authorize.has("login_hint")).toBe(false);
      expect(result.authorize.has("prompt")).toBe(false);
      const token = fake.last("/token")!;
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      expect(fake.last("/public/v1/users")!.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "kicker",
        email: "kick@example.com",
        emailVerified: false,
        image: "https://kick/p.webp",
      });
      expect(result.accounts).toEqual([expect.objectContaining({ providerId: "kick", accountId: "123456" })]);
    } finally {
      t.cleanup();
    }
  });

  it("an empty user list or a failed call ends with unable_to_get_user_info", async () => {
    const t = await providerInstance(provider());
    for (const answer of [{ json: { data: [] } }, { status: 401, json: { message: "Unauthorized" } }]) {
      fake.on("GET /public/v1/users", answer);
      const result = await signInThrough(t, "kick", fake);
      expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
      expect(result.session).toBeNull();
    }
  });

  it("refreshes with the secret in the form", async () => {
    const tokens = await provider().refreshAccessToken!("refresh-token-1");
    expect(tokens.accessToken).toBe("access-token-1");
    const token = fake.last("/token")!;
    expect(token.form.get("grant_type")).toBe("refresh_token");
    expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
  });
});
