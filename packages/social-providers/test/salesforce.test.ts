import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { salesforce } from "../src/providers/salesforce.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/services/oauth2/userinfo" };
const PROFILE = {
  sub: "https://login.salesforce.com/id/00Dx/005x",
  user_id: "005xx000001Sv6AAAS",
  organization_id: "00Dxx0000001gPLEAY",
  email: "sf@example.com",
  email_verified: true,
  name: "Sales Force",
  photos: { picture: "https://sf/p", thumbnail: "https://sf/t" },
};
const REQUEST = { state: "s", codeVerifier: "v".repeat(43), redirectURI: "http://localhost:3000/cb" };

describe("salesforce", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof salesforce>[0]> = {}) =>
    salesforce({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE and post client auth (on SQLite)", async () => {
    fake.on("GET /services/oauth2/userinfo", { json: PROFILE });
    const t = await providerInstance(provider({ prompt: "login" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "salesforce", fake, { loginHint: "sf@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("scope")).toBe("openid email profile");
      expect(result.authorize.get("code_challenge_method")).toBe("S256");
      expect(result.authorize.has("login_hint")).toBe(false);
      expect(result.authorize.has("prompt")).toBe(false);
      const token = fake.last("/token")!;
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      expect(fake.last("/services/oauth2/userinfo")!.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "Sales Force",
        email: "sf@example.com",
        emailVerified: true,
        image: "https://sf/p",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "salesforce", accountId: "005xx000001Sv6AAAS" }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("picks the host from loginUrl, else the environment", async () => {
    const host = async (options: Partial<Parameters<typeof salesforce>[0]>) =>
      (await salesforce({ ...CLIENT, ...options }).createAuthorizationURL(REQUEST)).href.split("?")[0];
    expect(await host({})).toBe("https://login.salesforce.com/services/oauth2/authorize");
    expect(await host({ environment: "sandbox" })).toBe(
      "https://test.salesforce.com/services/oauth2/authorize",
    );
    expect(await host({ environment: "sandbox", loginUrl: "acme.my.salesforce.com" })).toBe(
      "https://acme.my.salesforce.com/services/oauth2/authorize",
    );
  });

  it("falls back to the thumbnail; an unverified or unstated email is unverified", async () => {
    const { email_verified: _v, ...rest } = PROFILE;
    fake.on("GET /services/oauth2/userinfo", { json: { ...rest, photos: { thumbnail: "https://sf/t" } } });
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.user).toMatchObject({ image: "https://sf/t", emailVerified: false });
  });

  it("ends with unable_to_get_user_info when the profile call fails", async () => {
    fake.on("GET /services/oauth2/userinfo", { status: 403, json: [{ errorCode: "INSUFFICIENT_ACCESS" }] });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "salesforce", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(result.session).toBeNull();
  });

  it("refreshes with the secret in the form; refuses a config without a secret", async () => {
    const tokens = await provider().refreshAccessToken!("refresh-token-1");
    expect(tokens.accessToken).toBe("access-token-1");
    const token = fake.last("/token")!;
    expect(token.form.get("grant_type")).toBe("refresh_token");
    expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
    expect(() => salesforce({ clientId: "id" })).toThrow(TypeError);
  });
});
