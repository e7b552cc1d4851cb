import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vercel } from "../src/providers/vercel.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/login/oauth/userinfo" };
const PROFILE = {
  sub: "vc-user-1",
  name: "Ver Cel",
  preferred_username: "vercel-dev",
  email: "ver@example.com",
  email_verified: true,
  picture: "https://vercel/p.png",
};

describe("vercel", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof vercel>[0]> = {}) =>
    vercel({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE and no scope by default (on SQLite)", async () => {
    fake.on("GET /login/oauth/userinfo", { json: PROFILE });
    const t = await providerInstance(provider({ prompt: "login" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "vercel", fake, { loginHint: "ver@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("code_challenge_method")).toBe("S256");
      for (const absent of ["scope", "login_hint", "prompt"])
        expect(result.authorize.has(absent)).toBe(false);
      const token = fake.last("/token")!;
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      expect(fake.last("/login/oauth/userinfo")!.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "Ver Cel",
        email: "ver@example.com",
        emailVerified: true,
        image: "https://vercel/p.png",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "vercel", accountId: "vc-user-1" }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("sends configured scopes; has no refresh; name falls back to the username", async () => {
    const url = await provider({ scope: ["openid", "email"] }).createAuthorizationURL({
      state: "s",
      codeVerifier: "v".repeat(43),
      redirectURI: "http://localhost:3000/cb",
    });
    expect(url.searchParams.get("scope")).toBe("openid email");
    expect(provider().refreshAccessToken).toBeUndefined();
    fake.on("GET /login/oauth/userinfo", {
      json: { ...PROFILE, name: undefined, email_verified: undefined },
    });
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user).toMatchObject({
      name: "vercel-dev",
      emailVerified: false,
    });
  });

  it("ends with unable_to_get_user_info when the profile call fails", async () => {
    fake.on("GET /login/oauth/userinfo", { status: 401, json: { error: "invalid_token" } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "vercel", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(result.session).toBeNull();
  });
});
