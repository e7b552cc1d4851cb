import { describe, expect, it } from "vitest";
import { spotify } from "../src/providers/spotify.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectProfileFailure, expectRedirectSignIn, expectRefresh } from "./support/flow-expectations.ts";
import { at, CLIENT } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/v1/me" };
const PROFILE = {
  id: "wizzler",
  display_name: "Wizzler",
  email: "wizzler@example.com",
  images: [{ url: "https://i.scdn.co/1.jpg", height: 300, width: 300 }, { url: "https://i.scdn.co/2.jpg" }],
};

describe("spotify", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof spotify>[0]> = {}) =>
    spotify({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE and the secret in the form (on SQLite)", async () => {
    await expectRedirectSignIn(fake, {
      provider: provider({ prompt: "login" }),
      loginHint: "wizzler@example.com",
      authorize: {
        scope: "user-read-email",
        code_challenge_method: "S256",
        login_hint: null,
        prompt: null,
      },
      token: { auth: "post", pkce: true },
      profile: { route: "GET /v1/me", answer: { json: PROFILE } },
      accountId: "wizzler",
      user: {
        name: "Wizzler",
        email: "wizzler@example.com",
        emailVerified: false,
        image: "https://i.scdn.co/1.jpg",
      },
    });
  });

  it("a profile without images or display name has no image and an empty name", async () => {
    fake.on("GET /v1/me", { json: { ...PROFILE, display_name: null, images: [] } });
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.user).toMatchObject({ name: "", image: undefined });
  });

  it("ends with unable_to_get_user_info when the profile call fails", () =>
    expectProfileFailure(provider(), fake, "GET /v1/me", {
      status: 401,
      json: { error: { status: 401, message: "Invalid access token" } },
    }));

  it("refreshes with the secret in the form", () => expectRefresh(provider(), fake, { auth: "post" }));
});
