import { describe, expect, it } from "vitest";
import { slack } from "../src/providers/slack.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectProfileFailure, expectRedirectSignIn, expectRefresh } from "./support/flow-expectations.ts";
import { at, CLIENT } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/api/openid.connect.userInfo" };
const PROFILE = {
  ok: true,
  sub: "U0R7JM",
  "https://slack.com/user_id": "U0R7JM",
  "https://slack.com/team_id": "T0R7GR",
  email: "krane@example.com",
  email_verified: true,
  name: "krane",
  "https://slack.com/user_image_512": "https://secure.gravatar.com/512.png",
};

describe("slack", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof slack>[0]> = {}) =>
    slack({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in without PKCE, the secret in the form (on SQLite)", async () => {
    await expectRedirectSignIn(fake, {
      provider: provider({ prompt: "consent" }),
      loginHint: "krane@example.com",
      authorize: {
        scope: "openid profile email",
        code_challenge: null,
        login_hint: null,
        prompt: null,
      },
      token: { auth: "post", pkce: false },
      profile: { route: "GET /api/openid.connect.userInfo", answer: { json: PROFILE } },
      accountId: "U0R7JM",
      user: {
        name: "krane",
        email: "krane@example.com",
        emailVerified: true,
        image: "https://secure.gravatar.com/512.png",
      },
    });
  });

  it("prefers picture over the 512px avatar", async () => {
    fake.on("GET /api/openid.connect.userInfo", { json: { ...PROFILE, picture: "https://slack/p.png" } });
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user.image).toBe("https://slack/p.png");
  });

  it("Slack's 200 `ok: false` answer ends with unable_to_get_user_info", () =>
    expectProfileFailure(provider(), fake, "GET /api/openid.connect.userInfo", {
      json: { ok: false, error: "invalid_auth" },
    }));

  it("refreshes with the secret in the form", () => expectRefresh(provider(), fake, { auth: "post" }));
});
