import { describe, expect, it } from "vitest";
import { vercel } from "../src/providers/vercel.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectProfileFailure, expectRedirectSignIn } from "./support/flow-expectations.ts";
import { AUTHORIZATION_REQUEST, at, CLIENT } from "./support/flow.ts";

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
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof vercel>[0]> = {}) =>
    vercel({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE and no scope by default (on SQLite)", async () => {
    await expectRedirectSignIn(fake, {
      provider: provider({ prompt: "login" }),
      loginHint: "ver@example.com",
      authorize: {
        code_challenge_method: "S256",
        scope: null,
        login_hint: null,
        prompt: null,
      },
      token: { auth: "post", pkce: true },
      profile: { route: "GET /login/oauth/userinfo", answer: { json: PROFILE } },
      accountId: "vc-user-1",
      user: {
        name: "Ver Cel",
        email: "ver@example.com",
        emailVerified: true,
        image: "https://vercel/p.png",
      },
    });
  });

  it("sends configured scopes; has no refresh; name falls back to the username", async () => {
    const url = await provider({ scope: ["openid", "email"] }).createAuthorizationURL(AUTHORIZATION_REQUEST);
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

  it("ends with unable_to_get_user_info when the profile call fails", () =>
    expectProfileFailure(provider(), fake, "GET /login/oauth/userinfo", {
      status: 401,
      json: { error: "invalid_token" },
    }));
});
