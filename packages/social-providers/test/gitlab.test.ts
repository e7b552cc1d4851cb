import { describe, expect, it } from "vitest";
import { gitlab } from "../src/providers/gitlab.ts";
import { redirectBack, useFakeProvider } from "./support/fake-provider.ts";
import {
  expectParams,
  expectProfileFailure,
  expectRefresh,
  expectSignedIn,
  expectSignInError,
  expectTokenRequest,
} from "./support/flow-expectations.ts";
import { AUTHORIZATION_REQUEST, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

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
  const fake = useFakeProvider();
  // A self-managed instance: every endpoint under the issuer, as GitLab lays them out.
  fake.on("GET /oauth/authorize", redirectBack({ code: "gl-code" }));
  fake.on("POST /oauth/token", {
    json: { access_token: "access-token-1", refresh_token: "r-1", expires_in: 7200 },
  });

  // A trailing slash on the issuer must not produce `//oauth/...`.
  const provider = (extra: Partial<Parameters<typeof gitlab>[0]> = {}) =>
    gitlab({ ...CLIENT, issuer: `${fake.origin}/`, ...extra });

  it("signs in against a self-managed issuer with PKCE and login_hint (on SQLite)", async () => {
    fake.on("GET /api/v4/user", { json: PROFILE });
    const t = await providerInstance(provider({ prompt: "login" }), { sqlite: true });
    const result = await signInThrough(t, "gitlab", fake, { loginHint: "tanuki@example.com" });
    const authorize = fake.last("/oauth/authorize")!.query;
    expectParams(authorize, {
      scope: "read_user",
      code_challenge_method: "S256",
      login_hint: "tanuki@example.com",
      prompt: null,
    });
    const token = fake.last("/oauth/token")!;
    expectTokenRequest(token, { auth: "post", pkce: true });
    expect(token.form.get("code")).toBe("gl-code");
    expect(fake.last("/api/v4/user")!.headers.authorization).toBe("Bearer access-token-1");
    expectSignedIn(
      result,
      { providerId: "gitlab", accountId: "42" },
      {
        name: "Tanu Ki",
        email: "tanuki@example.com",
        emailVerified: true,
        image: "https://gl/a.png",
      },
    );
  });

  it("defaults to gitlab.com", async () => {
    const url = await gitlab(CLIENT).createAuthorizationURL(AUTHORIZATION_REQUEST);
    expect(url.origin + url.pathname).toBe("https://gitlab.com/oauth/authorize");
  });

  it("blocked or locked users fail with unable_to_get_user_info", async () => {
    const t = await providerInstance(provider());
    for (const profile of [
      { ...PROFILE, state: "blocked" },
      { ...PROFILE, locked: true },
    ]) {
      fake.on("GET /api/v4/user", { json: profile });
      await expectSignInError(t, "gitlab", fake);
    }
  });

  it("name falls back to the username; email_verified defaults to false", async () => {
    fake.on("GET /api/v4/user", { json: { ...PROFILE, name: null, email_verified: undefined } });
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.user).toMatchObject({ name: "tanuki", emailVerified: false });
  });

  it("ends with unable_to_get_user_info when the profile call fails", () =>
    expectProfileFailure(provider(), fake, "GET /api/v4/user", {
      status: 401,
      json: { message: "401 Unauthorized" },
    }));

  it("refreshes at the issuer's token endpoint", () =>
    expectRefresh(provider(), fake, { auth: "post", tokenPath: "/oauth/token", refreshToken: "r-1" }));
});
