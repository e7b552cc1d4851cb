import { describe, expect, it } from "vitest";
import { paybin } from "../src/providers/paybin.ts";
import { redirectBack, useFakeProvider } from "./support/fake-provider.ts";
import {
  expectParams,
  expectProfileFailure,
  expectRefresh,
  expectSignedIn,
  expectTokenRequest,
} from "./support/flow-expectations.ts";
import { AUTHORIZATION_REQUEST, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";
import { unsignedJwt } from "./support/id-token-signer.ts";

const CLAIMS = {
  iss: "https://idp.paybin.io",
  sub: "pb-user-1",
  aud: CLIENT.clientId,
  email: "pay@example.com",
  email_verified: true,
  name: "Pay Bin",
  picture: "https://paybin/p.png",
};

describe("paybin", () => {
  const fake = useFakeProvider();
  // The issuer's own layout: /oauth2/authorize and /oauth2/token.
  fake.on("GET /oauth2/authorize", redirectBack({ code: "pb-code" }));

  const provider = (extra: Partial<Parameters<typeof paybin>[0]> = {}) =>
    paybin({ ...CLIENT, issuer: fake.origin, ...extra });

  it("signs in at the issuer with PKCE, prompt and login_hint, the profile from the ID token (on SQLite)", async () => {
    fake.on("POST /oauth2/token", {
      json: { access_token: "access-token-1", id_token: unsignedJwt(CLAIMS) },
    });
    const t = await providerInstance(provider({ prompt: "login" }), { sqlite: true });
    const result = await signInThrough(t, "paybin", fake, { loginHint: "pay@example.com" });
    const authorize = fake.last("/oauth2/authorize")!.query;
    expectParams(authorize, {
      scope: "openid email profile",
      code_challenge_method: "S256",
      login_hint: "pay@example.com",
      prompt: "login",
    });
    const token = fake.last("/oauth2/token")!;
    expectTokenRequest(token, { auth: "post", pkce: true });
    expect(token.form.get("code")).toBe("pb-code");
    expectSignedIn(
      result,
      { providerId: "paybin", accountId: "pb-user-1" },
      {
        name: "Pay Bin",
        email: "pay@example.com",
        emailVerified: true,
        image: "https://paybin/p.png",
      },
    );
  });

  it("defaults to idp.paybin.io; refuses a config without a secret", async () => {
    const url = await paybin(CLIENT).createAuthorizationURL(AUTHORIZATION_REQUEST);
    expect(url.origin + url.pathname).toBe("https://idp.paybin.io/oauth2/authorize");
    expect(() => paybin({ clientId: "id" })).toThrow(TypeError);
  });

  it("a token response without an ID token ends with unable_to_get_user_info", () =>
    expectProfileFailure(provider(), fake, "POST /oauth2/token", {
      json: { access_token: "access-token-1" },
    }));

  it("refreshes at the issuer with the secret in the form", async () => {
    fake.on("POST /oauth2/token", { json: { access_token: "access-token-2" } });
    await expectRefresh(provider(), fake, {
      auth: "post",
      tokenPath: "/oauth2/token",
      accessToken: "access-token-2",
    });
  });
});
