import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zoom } from "../src/providers/zoom.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/v2/users/me" };
const PROFILE = {
  id: "KDcuGIm1QgePTO8WbOqwIQ",
  first_name: "Jill",
  last_name: "Chill",
  display_name: "Jill Chill",
  email: "jchill@example.com",
  pic_url: "https://zoom/p.jpg",
  verified: 1,
};

describe("zoom", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof zoom>[0]> = {}) =>
    zoom({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE by default, no scope and the secret in the form (on SQLite)", async () => {
    fake.on("GET /v2/users/me", { json: PROFILE });
    const t = await providerInstance(provider({ prompt: "login" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "zoom", fake, { loginHint: "jchill@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("code_challenge_method")).toBe("S256");
      for (const absent of ["scope", "login_hint", "prompt"])
        expect(result.authorize.has(absent)).toBe(false);
      const token = fake.last("/token")!;
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(fake.last("/v2/users/me")!.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "Jill Chill",
        email: "jchill@example.com",
        emailVerified: true,
        image: "https://zoom/p.jpg",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "zoom", accountId: PROFILE.id }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("pkce: false sends neither challenge nor verifier; an unverified account is unverified", async () => {
    fake.on("GET /v2/users/me", { json: { ...PROFILE, verified: 0 } });
    const t = await providerInstance(provider({ pkce: false }));
    const result = await signInThrough(t, "zoom", fake);
    expect(result.authorize.has("code_challenge")).toBe(false);
    expect(fake.last("/token")!.form.has("code_verifier")).toBe(false);
    expect(result.session?.user).toMatchObject({ emailVerified: false });
  });

  it("ends with unable_to_get_user_info when the profile call fails", async () => {
    fake.on("GET /v2/users/me", { status: 401, json: { code: 124, message: "Invalid access token." } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "zoom", fake);
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
