import { describe, expect, it } from "vitest";
import { polar } from "../src/providers/polar.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectProfileFailure, expectRedirectSignIn, expectRefresh } from "./support/flow-expectations.ts";
import { at, CLIENT } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/v1/oauth2/userinfo" };
const PROFILE = {
  id: "polar-user-1",
  email: "polar@example.com",
  username: "polarbear",
  public_name: "Polar Bear",
  avatar_url: "https://polar/a.png",
  email_verified: true,
};

describe("polar", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof polar>[0]> = {}) =>
    polar({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE and the prompt option (on SQLite)", async () => {
    await expectRedirectSignIn(fake, {
      provider: provider({ prompt: "consent" }),
      loginHint: "polar@example.com",
      authorize: {
        scope: "openid profile email",
        code_challenge_method: "S256",
        prompt: "consent",
        login_hint: null,
      },
      token: { auth: "post", pkce: true },
      profile: { route: "GET /v1/oauth2/userinfo", answer: { json: PROFILE } },
      accountId: "polar-user-1",
      user: {
        name: "Polar Bear",
        email: "polar@example.com",
        emailVerified: true,
        image: "https://polar/a.png",
      },
    });
  });

  it("falls back to the username; an unstated verification is unverified", async () => {
    fake.on("GET /v1/oauth2/userinfo", {
      json: { ...PROFILE, public_name: undefined, email_verified: undefined },
    });
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user).toMatchObject({
      name: "polarbear",
      emailVerified: false,
    });
  });

  it("ends with unable_to_get_user_info when the profile call fails", () =>
    expectProfileFailure(provider(), fake, "GET /v1/oauth2/userinfo", {
      status: 401,
      json: { error: "invalid_token" },
    }));

  it("refreshes with the secret in the form", () => expectRefresh(provider(), fake, { auth: "post" }));
});
