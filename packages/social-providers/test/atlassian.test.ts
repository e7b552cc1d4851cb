import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { atlassian } from "../src/providers/atlassian.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/me" };
const PROFILE = {
  account_type: "atlassian",
  account_id: "557058:0a1b2c3d",
  email: "mia@example.com",
  name: "Mia Krystof",
  picture: "https://avatar-management/a.png",
};

describe("atlassian", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof atlassian>[0]> = {}) =>
    atlassian({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE, the audience and the prompt option (on SQLite)", async () => {
    fake.on("GET /me", { json: PROFILE });
    const t = await providerInstance(provider({ prompt: "consent" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "atlassian", fake, { loginHint: "mia@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("scope")).toBe("read:jira-user offline_access");
      expect(result.authorize.get("audience")).toBe("api.atlassian.com");
      expect(result.authorize.get("prompt")).toBe("consent");
      expect(result.authorize.get("code_challenge_method")).toBe("S256");
      expect(result.authorize.has("login_hint")).toBe(false);
      const token = fake.last("/token")!;
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      expect(fake.last("/me")!.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "Mia Krystof",
        email: "mia@example.com",
        emailVerified: false,
        image: "https://avatar-management/a.png",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "atlassian", accountId: "557058:0a1b2c3d" }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("the audience cannot be overridden; a config without a secret is refused", async () => {
    const url = await provider().createAuthorizationURL({
      state: "s",
      codeVerifier: "v".repeat(43),
      redirectURI: "http://localhost:3000/cb",
      additionalParams: { audience: "evil.example" },
    });
    expect(url.searchParams.getAll("audience")).toEqual(["api.atlassian.com"]);
    expect(() => atlassian({ clientId: "id" })).toThrow(TypeError);
  });

  it("ends with unable_to_get_user_info when the profile call fails", async () => {
    fake.on("GET /me", { status: 401, json: { code: 401, message: "Unauthorized" } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "atlassian", fake);
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
