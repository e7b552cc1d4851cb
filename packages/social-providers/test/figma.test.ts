import { describe, expect, it } from "vitest";
import { figma } from "../src/providers/figma.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectProfileFailure, expectRedirectSignIn, expectRefresh } from "./support/flow-expectations.ts";
import { at, CLIENT } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/v1/me" };
const PROFILE = {
  id: "1234567890",
  email: "fig@example.com",
  handle: "figgy",
  img_url: "https://figma/i.png",
};

describe("figma", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof figma>[0]> = {}) =>
    figma({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE and Basic client auth (on SQLite)", async () => {
    await expectRedirectSignIn(fake, {
      provider: provider({ prompt: "consent" }),
      loginHint: "fig@example.com",
      authorize: {
        scope: "current_user:read",
        code_challenge_method: "S256",
        login_hint: null,
        prompt: null,
      },
      token: { auth: "basic", pkce: true },
      profile: { route: "GET /v1/me", answer: { json: PROFILE } },
      accountId: "1234567890",
      user: {
        name: "figgy",
        email: "fig@example.com",
        emailVerified: false,
        image: "https://figma/i.png",
      },
    });
  });

  it("refuses a configuration without a client secret", () => {
    expect(() => figma({ clientId: "id" })).toThrow(TypeError);
  });

  it("ends with unable_to_get_user_info when the profile call fails", () =>
    expectProfileFailure(provider(), fake, "GET /v1/me", {
      status: 403,
      json: { status: 403, err: "Invalid token" },
    }));

  it("refreshes with Basic client auth", () => expectRefresh(provider(), fake, { auth: "basic" }));
});
