import { describe, expect, it } from "vitest";
import { atlassian } from "../src/providers/atlassian.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectProfileFailure, expectRedirectSignIn, expectRefresh } from "./support/flow-expectations.ts";
import { AUTHORIZATION_REQUEST, at, CLIENT } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/me" };
const PROFILE = {
  account_type: "atlassian",
  account_id: "557058:0a1b2c3d",
  email: "mia@example.com",
  name: "Mia Krystof",
  picture: "https://avatar-management/a.png",
};

describe("atlassian", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof atlassian>[0]> = {}) =>
    atlassian({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE, the audience and the prompt option (on SQLite)", async () => {
    await expectRedirectSignIn(fake, {
      provider: provider({ prompt: "consent" }),
      loginHint: "mia@example.com",
      authorize: {
        scope: "read:jira-user offline_access",
        audience: "api.atlassian.com",
        prompt: "consent",
        code_challenge_method: "S256",
        login_hint: null,
      },
      token: { auth: "post", pkce: true },
      profile: { route: "GET /me", answer: { json: PROFILE } },
      accountId: "557058:0a1b2c3d",
      user: {
        name: "Mia Krystof",
        email: "mia@example.com",
        emailVerified: false,
        image: "https://avatar-management/a.png",
      },
    });
  });

  it("the audience cannot be overridden; a config without a secret is refused", async () => {
    const url = await provider().createAuthorizationURL({
      ...AUTHORIZATION_REQUEST,
      additionalParams: { audience: "evil.example" },
    });
    expect(url.searchParams.getAll("audience")).toEqual(["api.atlassian.com"]);
    expect(() => atlassian({ clientId: "id" })).toThrow(TypeError);
  });

  it("ends with unable_to_get_user_info when the profile call fails", () =>
    expectProfileFailure(provider(), fake, "GET /me", {
      status: 401,
      json: { code: 401, message: "Unauthorized" },
    }));

  it("refreshes with the secret in the form", () => expectRefresh(provider(), fake, { auth: "post" }));
});
