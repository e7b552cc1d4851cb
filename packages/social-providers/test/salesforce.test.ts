import { describe, expect, it } from "vitest";
import { salesforce } from "../src/providers/salesforce.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectProfileFailure, expectRedirectSignIn, expectRefresh } from "./support/flow-expectations.ts";
import { AUTHORIZATION_REQUEST, at, CLIENT } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/services/oauth2/userinfo" };
const PROFILE = {
  sub: "https://login.salesforce.com/id/00Dx/005x",
  user_id: "005xx000001Sv6AAAS",
  organization_id: "00Dxx0000001gPLEAY",
  email: "sf@example.com",
  email_verified: true,
  name: "Sales Force",
  photos: { picture: "https://sf/p", thumbnail: "https://sf/t" },
};

describe("salesforce", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof salesforce>[0]> = {}) =>
    salesforce({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE and post client auth (on SQLite)", async () => {
    await expectRedirectSignIn(fake, {
      provider: provider({ prompt: "login" }),
      loginHint: "sf@example.com",
      authorize: {
        scope: "openid email profile",
        code_challenge_method: "S256",
        login_hint: null,
        prompt: null,
      },
      token: { auth: "post", pkce: true },
      profile: { route: "GET /services/oauth2/userinfo", answer: { json: PROFILE } },
      accountId: "005xx000001Sv6AAAS",
      user: {
        name: "Sales Force",
        email: "sf@example.com",
        emailVerified: true,
        image: "https://sf/p",
      },
    });
  });

  it("picks the host from loginUrl, else the environment", async () => {
    const host = async (options: Partial<Parameters<typeof salesforce>[0]>) =>
      (await salesforce({ ...CLIENT, ...options }).createAuthorizationURL(AUTHORIZATION_REQUEST)).href.split(
        "?",
      )[0];
    expect(await host({})).toBe("https://login.salesforce.com/services/oauth2/authorize");
    expect(await host({ environment: "sandbox" })).toBe(
      "https://test.salesforce.com/services/oauth2/authorize",
    );
    expect(await host({ environment: "sandbox", loginUrl: "acme.my.salesforce.com" })).toBe(
      "https://acme.my.salesforce.com/services/oauth2/authorize",
    );
  });

  it("falls back to the thumbnail; an unverified or unstated email is unverified", async () => {
    const { email_verified: _v, ...rest } = PROFILE;
    fake.on("GET /services/oauth2/userinfo", { json: { ...rest, photos: { thumbnail: "https://sf/t" } } });
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.user).toMatchObject({ image: "https://sf/t", emailVerified: false });
  });

  it("ends with unable_to_get_user_info when the profile call fails", () =>
    expectProfileFailure(provider(), fake, "GET /services/oauth2/userinfo", {
      status: 403,
      json: [{ errorCode: "INSUFFICIENT_ACCESS" }],
    }));

  it("refreshes with the secret in the form; refuses a config without a secret", async () => {
    await expectRefresh(provider(), fake, { auth: "post" });
    expect(() => salesforce({ clientId: "id" })).toThrow(TypeError);
  });
});
