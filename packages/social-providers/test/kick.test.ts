import { describe, it } from "vitest";
import { kick } from "../src/providers/kick.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectRedirectSignIn, expectRefresh, expectSignInError } from "./support/flow-expectations.ts";
import { at, CLIENT, providerInstance } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/public/v1/users" };
const USER = {
  user_id: 123456,
  name: "kicker",
  email: "kick@example.com",
  profile_picture: "https://kick/p.webp",
};

describe("kick", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof kick>[0]> = {}) =>
    kick({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE, the first user of the list (on SQLite)", async () => {
    await expectRedirectSignIn(fake, {
      provider: provider({ prompt: "consent" }),
      loginHint: "kick@example.com",
      authorize: {
        scope: "user:read",
        code_challenge_method: "S256",
        login_hint: null,
        prompt: null,
      },
      token: { auth: "post", pkce: true },
      profile: { route: "GET /public/v1/users", answer: { json: { data: [USER], message: "OK" } } },
      accountId: "123456",
      user: {
        name: "kicker",
        email: "kick@example.com",
        emailVerified: false,
        image: "https://kick/p.webp",
      },
    });
  });

  it("an empty user list or a failed call ends with unable_to_get_user_info", async () => {
    const t = await providerInstance(provider());
    for (const answer of [{ json: { data: [] } }, { status: 401, json: { message: "Unauthorized" } }]) {
      fake.on("GET /public/v1/users", answer);
      await expectSignInError(t, "kick", fake);
    }
  });

  it("refreshes with the secret in the form", () => expectRefresh(provider(), fake, { auth: "post" }));
});
