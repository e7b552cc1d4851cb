import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloudflare } from "../src/providers/cloudflare.ts";
import { BASIC_AUTH } from "./support/basic-auth.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/client/v4/user" };
const USER = {
  id: "7c5dae5552338874e5053f2534d2767a",
  email: "cf@example.com",
  first_name: "Flare",
  last_name: "Cloud",
};
const ok = (result: unknown) => ({ json: { success: true, errors: [], messages: [], result } });
const REQUEST = { state: "s", codeVerifier: "v".repeat(43), redirectURI: "http://localhost:3000/cb" };

describe("cloudflare", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof cloudflare>[0]> = {}) =>
    cloudflare({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE and Basic client auth, the profile from the API (on SQLite)", async () => {
    fake.on("GET /client/v4/user", ok(USER));
    const t = await providerInstance(provider({ prompt: "login" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "cloudflare", fake, { loginHint: "cf@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("scope")).toBe("user-details.read");
      expect(result.authorize.get("code_challenge_method")).toBe("S256");
      expect(result.authorize.has("login_hint")).toBe(false);
      expect(result.authorize.has("prompt")).toBe(false);
      const token = fake.last("/token")!;
      expect(token.headers.authorization).toBe(BASIC_AUTH);
      expect(token.form.has("client_secret")).toBe(false);
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      expect(fake.last("/client/v4/user")!.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "Flare Cloud",
        email: "cf@example.com",
        emailVerified: false,
        image: null,
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "cloudflare", accountId: USER.id }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("caller parameters are dropped; a user without names gets an empty name (spec, Social sign-in 6)", async () => {
    const url = await provider().createAuthorizationURL({ ...REQUEST, additionalParams: { foo: "bar" } });
    expect(url.searchParams.has("foo")).toBe(false);
    fake.on(
      "GET /client/v4/user",
      ok({ id: "1", email: "n@example.com", first_name: null, last_name: null }),
    );
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user.name).toBe("");
    fake.on("GET /client/v4/user", ok({ id: "2", email: "n@example.com", first_name: "Only" }));
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user.name).toBe("Only");
  });

  it("tokenEndpointAuthMethod: post puts the secret in the form; none sends only the client id", async () => {
    await provider({ tokenEndpointAuthMethod: "client_secret_post" }).refreshAccessToken!("r");
    expect(fake.last("/token")!.form.get("client_secret")).toBe(CLIENT.clientSecret);
    const publicClient = cloudflare({
      clientId: CLIENT.clientId,
      tokenEndpointAuthMethod: "none",
      endpoints: at(fake, ENDPOINTS),
    });
    await publicClient.refreshAccessToken!("r");
    const token = fake.last("/token")!;
    expect(token.headers.authorization).toBeUndefined();
    expect(token.form.get("client_id")).toBe(CLIENT.clientId);
    expect(token.form.has("client_secret")).toBe(false);
    expect(() => provider({ tokenEndpointAuthMethod: "none" })).toThrow(TypeError);
  });

  it("an unsuccessful API answer ends with unable_to_get_user_info", async () => {
    fake.on("GET /client/v4/user", {
      json: { success: false, errors: [{ code: 9109, message: "Unauthorized" }] },
    });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "cloudflare", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(result.session).toBeNull();
    fake.on("GET /client/v4/user", { status: 403, json: { success: false } });
    expect(await provider().getUserInfo({ accessToken: "t" })).toBeNull();
  });

  it("refreshes with Basic client auth", async () => {
    const tokens = await provider().refreshAccessToken!("refresh-token-1");
    expect(tokens.accessToken).toBe("access-token-1");
    const token = fake.last("/token")!;
    expect(token.headers.authorization).toBe(BASIC_AUTH);
    expect(token.form.get("grant_type")).toBe("refresh_token");
  });
});
