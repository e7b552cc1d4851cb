import { describe, expect, it } from "vitest";
import { railway } from "../src/providers/railway.ts";
import { redirectBack, useFakeProvider } from "./support/fake-provider.ts";
import {
  expectParams,
  expectProfileFailure,
  expectRefresh,
  expectSignedIn,
  expectTokenRequest,
} from "./support/flow-expectations.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/oauth/auth", token: "/oauth/token", userInfo: "/oauth/me" };
const PROFILE = {
  sub: "rw-user-1",
  email: "rail@example.com",
  name: "Rail Way",
  picture: "https://railway/p.png",
};

describe("railway", () => {
  const fake = useFakeProvider();
  fake.on("GET /oauth/auth", redirectBack({ code: "rw-code" }));
  fake.on("POST /oauth/token", {
    json: { access_token: "access-token-1", refresh_token: "r-1", expires_in: 3600 },
  });

  const provider = (extra: Partial<Parameters<typeof railway>[0]> = {}) =>
    railway({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE and Basic client auth (on SQLite)", async () => {
    fake.on("GET /oauth/me", { json: PROFILE });
    const t = await providerInstance(provider({ prompt: "consent" }), { sqlite: true });
    const result = await signInThrough(t, "railway", fake, { loginHint: "rail@example.com" });
    const authorize = fake.last("/oauth/auth")!.query;
    expectParams(authorize, {
      scope: "openid email profile",
      code_challenge_method: "S256",
      login_hint: null,
      prompt: null,
    });
    expectTokenRequest(fake.last("/oauth/token"), { auth: "basic", pkce: true });
    expect(fake.last("/oauth/me")!.headers.authorization).toBe("Bearer access-token-1");
    expectSignedIn(
      result,
      { providerId: "railway", accountId: "rw-user-1" },
      {
        name: "Rail Way",
        email: "rail@example.com",
        emailVerified: false,
        image: "https://railway/p.png",
      },
    );
  });

  it("ends with unable_to_get_user_info when the profile call fails", () =>
    expectProfileFailure(provider(), fake, "GET /oauth/me", {
      status: 401,
      json: { error: "invalid_token" },
    }));

  it("refreshes with Basic client auth", () =>
    expectRefresh(provider(), fake, { auth: "basic", tokenPath: "/oauth/token", refreshToken: "r-1" }));
});
