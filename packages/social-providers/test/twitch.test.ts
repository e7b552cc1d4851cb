import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { twitch } from "../src/providers/twitch.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token" };
const CLAIMS = {
  iss: "https://id.twitch.tv/oauth2",
  aud: CLIENT.clientId,
  sub: "713936733",
  preferred_username: "twitchdev",
  email: "dev@twitch.example",
  email_verified: true,
  picture: "https://static-cdn/p.png",
};

/** An ID token as the token endpoint would return it (the signature part is opaque here). */
const idToken = (claims: Record<string, unknown>): string =>
  [{ alg: "RS256", typ: "JWT" }, claims]
    .map((part) => Buffer.from(JSON.stringify(part)).toString("base64url"))
    .join(".") + ".c2lnbmF0dXJl";

describe("twitch", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof twitch>[0]> = {}) =>
    twitch({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in from the ID token's claims, asked through the claims parameter (on SQLite)", async () => {
    fake.tokens = { id_token: idToken(CLAIMS) };
    const t = await providerInstance(provider({ prompt: "consent" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "twitch", fake, { loginHint: "twitchdev" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("scope")).toBe("user:read:email openid");
      expect(JSON.parse(result.authorize.get("claims")!)).toEqual({
        id_token: { email: null, email_verified: null, preferred_username: null, picture: null },
      });
      for (const absent of ["code_challenge", "login_hint", "prompt", "nonce"])
        expect(result.authorize.has(absent)).toBe(false);
      const token = fake.last("/token")!;
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(token.form.has("code_verifier")).toBe(false);
      // No userinfo call: the ID token is the profile.
      expect(fake.requests.map((r) => r.path)).toEqual(["/authorize", "/token"]);
      expect(result.session?.user).toMatchObject({
        name: "twitchdev",
        email: "dev@twitch.example",
        emailVerified: true,
        image: "https://static-cdn/p.png",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "twitch", accountId: "713936733" }),
      ]);
    } finally {
      fake.tokens = {};
      t.cleanup();
    }
  });

  it("configured claims replace the defaults, beside email and email_verified", async () => {
    const url = await provider({ claims: ["updated_at"] }).createAuthorizationURL({
      state: "s",
      codeVerifier: "v".repeat(43),
      redirectURI: "http://localhost:3000/cb",
    });
    expect(JSON.parse(url.searchParams.get("claims")!)).toEqual({
      id_token: { email: null, email_verified: null, updated_at: null },
    });
  });

  it("a token response without an ID token (or a malformed one) fails with unable_to_get_user_info", async () => {
    const t = await providerInstance(provider());
    for (const tokens of [{}, { id_token: "not-a-jwt" }, { id_token: "a.b_!.c" }]) {
      fake.tokens = tokens;
      const result = await signInThrough(t, "twitch", fake);
      expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
      expect(result.session).toBeNull();
    }
    fake.tokens = {};
  });

  it("refreshes with the secret in the form", async () => {
    const tokens = await provider().refreshAccessToken!("refresh-token-1");
    expect(tokens.accessToken).toBe("access-token-1");
    const token = fake.last("/token")!;
    expect(token.form.get("grant_type")).toBe("refresh_token");
    expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
  });
});
