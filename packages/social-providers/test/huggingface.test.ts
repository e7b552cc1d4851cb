import { describe, expect, it } from "vitest";
import { huggingface } from "../src/providers/huggingface.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectProfileFailure, expectRedirectSignIn, expectRefresh } from "./support/flow-expectations.ts";
import { at, CLIENT } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/oauth/userinfo" };
const PROFILE = {
  sub: "62f0b1c3d4",
  name: "Hug Face",
  preferred_username: "hugger",
  picture: "https://hf/a.png",
  email: "hug@example.com",
  email_verified: true,
};

describe("huggingface", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof huggingface>[0]> = {}) =>
    huggingface({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE and the secret in the form (on SQLite)", async () => {
    await expectRedirectSignIn(fake, {
      provider: provider({ prompt: "consent" }),
      loginHint: "hug@example.com",
      authorize: {
        scope: "openid profile email",
        code_challenge_method: "S256",
        login_hint: null,
        prompt: null,
      },
      token: { auth: "post", pkce: true },
      profile: { route: "GET /oauth/userinfo", answer: { json: PROFILE } },
      accountId: "62f0b1c3d4",
      user: {
        name: "Hug Face",
        email: "hug@example.com",
        emailVerified: true,
        image: "https://hf/a.png",
      },
    });
  });

  it("falls back to the username; an unstated verification is unverified", async () => {
    fake.on("GET /oauth/userinfo", { json: { ...PROFILE, name: undefined, email_verified: undefined } });
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.user).toMatchObject({ name: "hugger", emailVerified: false });
  });

  it("ends with unable_to_get_user_info when the profile call fails", () =>
    expectProfileFailure(provider(), fake, "GET /oauth/userinfo", {
      status: 401,
      json: { error: "invalid_token" },
    }));

  it("refreshes with the secret in the form", () => expectRefresh(provider(), fake, { auth: "post" }));
});
