import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitlab } from "../src/providers/gitlab.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const PROFILE = {
  id: 42,
  username: "tanuki",
  name: "Tanu Ki",
  email: "tanuki@example.com",
  email_verified: true,
  state: "active",
  locked: false,
  avatar_url: "https://gl/a.png",
};

describe("gitlab", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
    // A self-managed instance: every endpoint under the issuer, as GitLab lays them out.
    fake.on("GET /oauth/authorize", ({ query }) => {
      const back = new URL(query.get("redirect_uri")!);
      back.searchParams.set("code", "gl-code");
      back.searchParams.set("state", query.get("state")!);
      return { status: 302, headers: { location: back.href } };
    });
    fake.on("POST /oauth/token", {
      json: { access_token: "access-token-1", refresh_token: "r-1", expires_in: 7200 },
    });
  });
  afterAll(() => fake.close());

  // A trailing slash on the issuer must not produce `//oauth/...`.
  const provider = (extra: Partial<Parameters<typeof gitlab>[0]> = {}) =>
    gitlab({ ...CLIENT, issuer: `${fake.origin}/`, ...extra });

  it("signs in against a self-managed issuer with PKCE and login_hint (on SQLite)", async () => {
    fake.on("GET /api/v4/user", { json: PROFILE });
    const t = await providerInstance(provider({ prompt: "login" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "gitlab", fake, { loginHint: "tanuki@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      const authorize = fake.last("/oauth/authorize")!.query;
      expect(authorize.get("scope")).toBe("read_user");
      expect(authorize.get("code_challenge_method")).toBe("S256");
      expect(authorize.get("login_hint")).toBe("tanuki@example.com");
      expect(authorize.has("prompt")).toBe(false);
      const token = fake.last("/oauth/token")!;
      expect(token.form.get("code")).toBe("gl-code");
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(fake.last("/api/v4/user")!.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "Tanu Ki",
        email: "tanuki@example.com",
        emailVerified: true,
        image: "https://gl/a.png",
      });
      expect(result.accounts).toEqual([expect.objectContaining({ providerId: "gitlab", accountId: "42" })]);
    } finally {
      t.cleanup();
    }
  });

  it("defaults to gitlab.com", async () => {
    const url = await gitlab(CLIENT).createAuthorizationURL({
      state: "s",
      codeVerifier: "v".repeat(43),
      redirectURI: "http://localhost:3000/cb",
    });
    expect(url.origin + url.pathname).toBe("https://gitlab.com/oauth/authorize");
  });

  it("blocked or locked users fail with unable_to_get_user_info", async () => {
    const t = await providerInstance(provider());
    for (const profile of [
      { ...PROFILE, state: "blocked" },
      { ...PROFILE, locked: true },
    ]) {
      fake.on("GET /api/v4/user", { json: profile });
      const result = await signInThrough(t, "gitlab", fake);
      expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
      expect(result.session).toBeNull();
    }
  });

  it("name falls back to the username; email_verified defaults to false", async () => {
    fake.on("GET /api/v4/user", { json: { ...PROFILE, name: null, email_verified: undefined } });
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.user).toMatchObject({ name: "tanuki", emailVerified: false });
  });

  it("ends with unable_to_get_user_info when the profile call fails", async () => {
    fake.on("GET /api/v4/user", { status: 401, json: { message: "401 Unauthorized" } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "gitlab", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
  });

  it("refreshes at the issuer's token endpoint", async () => {
    const tokens = await provider().refreshAccessToken!("r-1");
    expect(tokens.accessToken).toBe("access-token-1");
    const token = fake.last("/oauth/token")!;
    expect(token.form.get("grant_type")).toBe("refresh_token");
    expect(token.form.get("refresh_token")).toBe("r-1");
    expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
  });
});
