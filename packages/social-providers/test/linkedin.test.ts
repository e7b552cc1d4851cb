import { describe, expect, it } from "vitest";
import { linkedin } from "../src/providers/linkedin.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectParams, expectSignedIn, expectSignInError } from "./support/flow-expectations.ts";
import { AUTH, AUTHORIZATION_REQUEST, at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/v2/userinfo" };

describe("linkedin", () => {
  const fake = useFakeProvider();

  const provider = () => linkedin({ ...CLIENT, prompt: "login", endpoints: at(fake, ENDPOINTS) });

  it("signs in from OIDC userinfo with login_hint, no PKCE and no prompt", async () => {
    fake.on("GET /v2/userinfo", {
      json: {
        sub: "782bbtaQ",
        name: "Ada Lovelace",
        given_name: "Ada",
        family_name: "Lovelace",
        picture: "https://media.licdn.example/ada.jpg",
        email: "ada@example.com",
        email_verified: true,
        locale: { country: "GB", language: "en" },
      },
    });
    const t = await providerInstance(provider(), { sqlite: true });
    const result = await signInThrough(t, "linkedin", fake, { loginHint: "ada@example.com" });
    const q = result.authorize;
    expectParams(q, {
      scope: "profile email openid",
      login_hint: "ada@example.com",
      code_challenge: null,
      prompt: null,
    });
    expect(fake.last("/token")!.form.get("client_secret")).toBe(CLIENT.clientSecret);
    expect(fake.last("/v2/userinfo")!.headers.authorization).toBe("Bearer access-token-1");
    expectSignedIn(
      result,
      { providerId: "linkedin", accountId: "782bbtaQ" },
      {
        name: "Ada Lovelace",
        email: "ada@example.com",
        emailVerified: true,
        image: "https://media.licdn.example/ada.jpg",
      },
    );
  });

  it("email_verified missing counts as false; a failed userinfo ends with unable_to_get_user_info", async () => {
    fake.on("GET /v2/userinfo", { json: { sub: "x1", email: "x@example.com" } });
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.user).toMatchObject({ emailVerified: false, name: "" });
    fake.on("GET /v2/userinfo", { status: 401, json: { message: "expired" } });
    await expectSignInError(await providerInstance(provider()), "linkedin", fake);
  });

  it("has no ID-token sign-in and uses LinkedIn's endpoints by default", async () => {
    const t = await providerInstance(provider());
    const res = await t.browser.post(`${AUTH}/sign-in/social`, {
      provider: "linkedin",
      idToken: { token: "a.b.c" },
    });
    expect(res.status).toBe(404);
    const url = await linkedin(CLIENT).createAuthorizationURL(AUTHORIZATION_REQUEST);
    expect(url.origin + url.pathname).toBe("https://www.linkedin.com/oauth/v2/authorization");
  });
});
