import { describe, expect, it } from "vitest";
import { roblox } from "../src/providers/roblox.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectProfileFailure, expectRedirectSignIn, expectRefresh } from "./support/flow-expectations.ts";
import { AUTHORIZATION_REQUEST, at, CLIENT } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/oauth/v1/userinfo" };
const PROFILE = {
  sub: "1516563360",
  name: "Roblox Dev",
  nickname: "Robloxian",
  preferred_username: "robloxdev",
  picture: "https://tr/p.png",
};

describe("roblox", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof roblox>[0]> = {}) =>
    roblox({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with the default prompt, post client auth and a placeholder email (on SQLite)", async () => {
    await expectRedirectSignIn(fake, {
      provider: provider(),
      loginHint: "x@example.com",
      authorize: {
        scope: "openid profile",
        prompt: "select_account consent",
        code_challenge: null,
        login_hint: null,
      },
      token: { auth: "post", pkce: false },
      profile: { route: "GET /oauth/v1/userinfo", answer: { json: PROFILE } },
      accountId: "1516563360",
      user: {
        name: "Robloxian",
        email: "1516563360@roblox.placeholder.invalid",
        emailVerified: false,
        image: "https://tr/p.png",
      },
    });
    expect(fake.last("/token")!.form.get("client_id")).toBe(CLIENT.clientId);
  });

  it("a configured prompt replaces the default; the name falls back to the username, then empty", async () => {
    const url = await provider({ prompt: "login" }).createAuthorizationURL(AUTHORIZATION_REQUEST);
    expect(url.searchParams.get("prompt")).toBe("login");
    fake.on("GET /oauth/v1/userinfo", { json: { sub: "7", preferred_username: "seven" } });
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user).toMatchObject({
      name: "seven",
      email: "7@roblox.placeholder.invalid",
    });
    fake.on("GET /oauth/v1/userinfo", { json: { sub: "8" } });
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user.name).toBe("");
  });

  it("ends with unable_to_get_user_info when the profile call fails", () =>
    expectProfileFailure(provider(), fake, "GET /oauth/v1/userinfo", {
      status: 401,
      json: { error: "invalid_token" },
    }));

  it("refreshes with the secret in the form", () => expectRefresh(provider(), fake, { auth: "post" }));
});
