import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { figma } from "../src/providers/figma.ts";
import { BASIC_AUTH } from "./support/basic-auth.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/v1/me" };
const PROFILE = {
  id: "1234567890",
  email: "fig@example.com",
  handle: "figgy",
  img_url: "https://figma/i.png",
};

describe("figma", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof figma>[0]> = {}) =>
    figma({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE and Basic client auth (on SQLite)", async () => {
    fake.on("GET /v1/me", { json: PROFILE });
    const t = await providerInstance(provider({ prompt: "consent" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "figma", fake, { loginHint: "fig@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("scope")).toBe("current_user:read");
      expect(result.authorize.get("code_challenge_method")).toBe("S256");
      expect(result.authorize.has("login_hint")).toBe(false);
      expect(result.authorize.has("prompt")).toBe(false);
      const token = fake.last("/token")!;
      expect(token.headers.authorization).toBe(BASIC_AUTH);
      expect(token.form.has("client_secret")).toBe(false);
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      expect(fake.last("/v1/me")!.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "figgy",
        email: "fig@example.com",
        emailVerified: false,
        image: "https://figma/i.png",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "figma", accountId: "1234567890" }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("refuses a configuration without a client secret", () => {
    expect(() => figma({ clientId: "id" })).toThrow(TypeError);
  });

  it("ends with unable_to_get_user_info when the profile call fails", async () => {
    fake.on("GET /v1/me", { status: 403, json: { status: 403, err: "Invalid token" } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "figma", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(result.session).toBeNull();
  });

  it("refreshes with Basic client auth", async () => {
    const tokens = await provider().refreshAccessToken!("refresh-token-1");
    expect(tokens.accessToken).toBe("access-token-1");
    const token = fake.last("/token")!;
    expect(token.headers.authorization).toBe(BASIC_AUTH);
    expect(token.form.get("grant_type")).toBe("refresh_token");
    expect(token.form.has("client_secret")).toBe(false);
  });
});
