import { describe, expect, it } from "vitest";
import { zoom } from "../src/providers/zoom.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectProfileFailure, expectRedirectSignIn, expectRefresh } from "./support/flow-expectations.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/v2/users/me" };
const PROFILE = {
  id: "KDcuGIm1QgePTO8WbOqwIQ",
  first_name: "Jill",
  last_name: "Chill",
  display_name: "Jill Chill",
  email: "jchill@example.com",
  pic_url: "https://zoom/p.jpg",
  verified: 1,
};

describe("zoom", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof zoom>[0]> = {}) =>
    zoom({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE by default, no scope and the secret in the form (on SQLite)", async () => {
    await expectRedirectSignIn(fake, {
      provider: provider({ prompt: "login" }),
      loginHint: "jchill@example.com",
      authorize: {
        code_challenge_method: "S256",
        scope: null,
        login_hint: null,
        prompt: null,
      },
      token: { auth: "post", pkce: true },
      profile: { route: "GET /v2/users/me", answer: { json: PROFILE } },
      accountId: PROFILE.id,
      user: {
        name: "Jill Chill",
        email: "jchill@example.com",
        emailVerified: true,
        image: "https://zoom/p.jpg",
      },
    });
  });

  it("pkce: false sends neither challenge nor verifier; an unverified account is unverified", async () => {
    fake.on("GET /v2/users/me", { json: { ...PROFILE, verified: 0 } });
    const t = await providerInstance(provider({ pkce: false }));
    const result = await signInThrough(t, "zoom", fake);
    expect(result.authorize.has("code_challenge")).toBe(false);
    expect(fake.last("/token")!.form.has("code_verifier")).toBe(false);
    expect(result.session?.user).toMatchObject({ emailVerified: false });
  });

  it("ends with unable_to_get_user_info when the profile call fails", () =>
    expectProfileFailure(provider(), fake, "GET /v2/users/me", {
      status: 401,
      json: { code: 124, message: "Invalid access token." },
    }));

  it("refreshes with the secret in the form", () => expectRefresh(provider(), fake, { auth: "post" }));
});
