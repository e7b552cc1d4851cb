import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paybin } from "../src/providers/paybin.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const CLAIMS = {
  iss: "https://idp.paybin.io",
  sub: "pb-user-1",
  aud: CLIENT.clientId,
  email: "pay@example.com",
  email_verified: true,
  name: "Pay Bin",
  picture: "https://paybin/p.png",
};

/** An ID token as the token endpoint would return it (the signature part is opaque here). */
const idToken = (claims: Record<string, unknown>): string =>
  [{ alg: "RS256", typ: "JWT" }, claims]
    .map((part) => Buffer.from(JSON.stringify(part)).toString("base64url"))
    .join(".") + ".c2lnbmF0dXJl";

describe("paybin", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
    // The issuer's own layout: /oauth2/authorize and /oauth2/token.
    fake.on("GET /oauth2/authorize", ({ query }) => {
      const back = new URL(query.get("redirect_uri")!);
      back.searchParams.set("code", "pb-code");
      back.searchParams.set("state", query.get("state")!);
      return { status: 302, headers: { location: back.href } };
    });
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof paybin>[0]> = {}) =>
    paybin({ ...CLIENT, issuer: fake.origin, ...extra });

  it("signs in at the issuer with PKCE, prompt and login_hint, the profile from the ID token (on SQLite)", async () => {
    fake.on("POST /oauth2/token", { json: { access_token: "access-token-1", id_token: idToken(CLAIMS) } });
    const t = await providerInstance(provider({ prompt: "login" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "paybin", fake, { loginHint: "pay@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      const authorize = fake.last("/oauth2/authorize")!.query;
      expect(authorize.get("scope")).toBe("openid email profile");
      expect(authorize.get("code_challenge_method")).toBe("S256");
      expect(authorize.get("login_hint")).toBe("pay@example.com");
      expect(authorize.get("prompt")).toBe("login");
      const token = fake.last("/oauth2/token")!;
      expect(token.form.get("code")).toBe("pb-code");
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      expect(result.session?.user).toMatchObject({
        name: "Pay Bin",
        email: "pay@example.com",
        emailVerified: true,
        image: "https://paybin/p.png",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "paybin", accountId: "pb-user-1" }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("defaults to idp.paybin.io; refuses a config without a secret", async () => {
    const url = await paybin(CLIENT).createAuthorizationURL({
      state: "s",
      codeVerifier: "v".repeat(43),
      redirectURI: "http://localhost:3000/cb",
    });
    expect(url.origin + url.pathname).toBe("https://idp.paybin.io/oauth2/authorize");
    expect(() => paybin({ clientId: "id" })).toThrow(TypeError);
  });

  it("a token response without an ID token ends with unable_to_get_user_info", async () => {
    fake.on("POST /oauth2/token", { json: { access_token: "access-token-1" } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "paybin", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(result.session).toBeNull();
  });

  it("refreshes at the issuer with the secret in the form", async () => {
    fake.on("POST /oauth2/token", { json: { access_token: "access-token-2" } });
    const tokens = await provider().refreshAccessToken!("refresh-token-1");
    expect(tokens.accessToken).toBe("access-token-2");
    const token = fake.last("/oauth2/token")!;
    expect(token.form.get("grant_type")).toBe("refresh_token");
    expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
  });
});
