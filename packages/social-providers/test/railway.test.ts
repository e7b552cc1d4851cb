import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { railway } from "../src/providers/railway.ts";
import { BASIC_AUTH } from "./support/basic-auth.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/oauth/auth", token: "/oauth/token", userInfo: "/oauth/me" };
const PROFILE = {
  sub: "rw-user-1",
  email: "rail@example.com",
  name: "Rail Way",
  picture: "https://railway/p.png",
};

describe("railway", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
    fake.on("GET /oauth/auth", ({ query }) => {
      const back = new URL(query.get("redirect_uri")!);
      back.searchParams.set("code", "rw-code");
      back.searchParams.set("state", query.get("state")!);
      return { status: 302, headers: { location: back.href } };
    });
    fake.on("POST /oauth/token", {
      json: { access_token: "access-token-1", refresh_token: "r-1", expires_in: 3600 },
    });
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof railway>[0]> = {}) =>
    railway({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE and Basic client auth (on SQLite)", async () => {
    fake.on("GET /oauth/me", { json: PROFILE });
    const t = await providerInstance(provider({ prompt: "consent" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "railway", fake, { loginHint: "rail@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      const authorize = fake.last("/oauth/auth")!.query;
      expect(authorize.get("scope")).toBe("openid email profile");
      expect(authorize.get("code_challenge_method")).toBe("S256");
      expect(authorize.has("login_hint")).toBe(false);
      expect(authorize.has("prompt")).toBe(false);
      const token = fake.last("/oauth/token")!;
      expect(token.headers.authorization).toBe(BASIC_AUTH);
      expect(token.form.has("client_secret")).toBe(false);
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      expect(fake.last("/oauth/me")!.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "Rail Way",
        email: "rail@example.com",
        emailVerified: false,
        image: "https://railway/p.png",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "railway", accountId: "rw-user-1" }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("ends with unable_to_get_user_info when the profile call fails", async () => {
    fake.on("GET /oauth/me", { status: 401, json: { error: "invalid_token" } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "railway", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(result.session).toBeNull();
  });

  it("refreshes with Basic client auth", async () => {
    const tokens = await provider().refreshAccessToken!("r-1");
    expect(tokens.accessToken).toBe("access-token-1");
    const token = fake.last("/oauth/token")!;
    expect(token.headers.authorization).toBe(BASIC_AUTH);
    expect(token.form.get("grant_type")).toBe("refresh_token");
    expect(token.form.has("client_secret")).toBe(false);
  });
});
