import { beforeEach, describe, expect, it } from "vitest";
import { paypal, type PayPalOptions } from "../src/providers/paypal.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import {
  expectParams,
  expectRefresh,
  expectSignedIn,
  expectSignInError,
  expectTokenRequest,
} from "./support/flow-expectations.ts";
import { AUTH, AUTHORIZATION_REQUEST, at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";
import { unsignedJwt } from "./support/id-token-signer.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/userinfo" };
const USER_ID = "https://www.paypal.com/webapps/auth/identity/user/abc123";
const PROFILE = {
  user_id: USER_ID,
  sub: USER_ID,
  name: "Ada Lovelace",
  email: "ada@example.com",
  email_verified: true,
  picture: "https://paypal.example/ada.png",
};

describe("paypal", () => {
  const fake = useFakeProvider();
  beforeEach(() => {
    fake.on("GET /userinfo", { json: PROFILE });
  });

  const provider = (options: Partial<PayPalOptions> = {}) =>
    paypal({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...options });

  it("redirect flow: PKCE, prompt, no scope or login_hint, Basic client auth, userinfo v1.1", async () => {
    const t = await providerInstance(provider({ prompt: "login" }), { sqlite: true });
    const result = await signInThrough(t, "paypal", fake, { loginHint: "ada@example.com" });
    const q = result.authorize;
    expectParams(q, { scope: null, code_challenge_method: "S256", prompt: "login", login_hint: null });
    expectTokenRequest(fake.last("/token"), { auth: "basic", pkce: true });
    const info = fake.last("/userinfo")!;
    expect(info.query.get("schema")).toBe("paypalv1.1");
    expect(info.headers.authorization).toBe("Bearer access-token-1");
    expectSignedIn(
      result,
      { providerId: "paypal", accountId: USER_ID },
      {
        name: "Ada Lovelace",
        email: "ada@example.com",
        emailVerified: true,
        image: "https://paypal.example/ada.png",
      },
    );
  });

  it("an ID token in the token response must name userinfo's subject", async () => {
    fake.tokens = {
      id_token: unsignedJwt({ sub: "https://www.paypal.com/webapps/auth/identity/user/other" }),
    };
    await expectSignInError(await providerInstance(provider()), "paypal", fake);
    fake.tokens = { id_token: unsignedJwt({ sub: USER_ID }) };
    const ok = await signInThrough(await providerInstance(provider()), "paypal", fake);
    expect(ok.session?.user).toMatchObject({ email: "ada@example.com" });
  });

  it("sandbox by default, live on request", async () => {
    const sandbox = await paypal(CLIENT).createAuthorizationURL(AUTHORIZATION_REQUEST);
    expect(sandbox.origin + sandbox.pathname).toBe("https://www.sandbox.paypal.com/signin/authorize");
    const live = await paypal({ ...CLIENT, environment: "live" }).createAuthorizationURL(
      AUTHORIZATION_REQUEST,
    );
    expect(live.origin + live.pathname).toBe("https://www.paypal.com/signin/authorize");
  });

  it("ID-token sign-in is off by default (spec, Versioning)", async () => {
    const t = await providerInstance(provider());
    const res = await t.browser.post(`${AUTH}/sign-in/social`, {
      provider: "paypal",
      idToken: { token: unsignedJwt({ sub: USER_ID }), accessToken: "a" },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "ID_TOKEN_NOT_SUPPORTED" });
  });

  it("legacyIdTokenSignIn: identity from userinfo with the access token, bound to the token's sub", async () => {
    const t = await providerInstance(provider({ legacyIdTokenSignIn: true }));
    const signIn = (idToken: Record<string, unknown>) =>
      t.browser.post(`${AUTH}/sign-in/social`, { provider: "paypal", idToken });
    const noAccess = await signIn({ token: unsignedJwt({ sub: USER_ID }) });
    expect(noAccess.status).toBe(401);
    expect(await noAccess.json()).toMatchObject({ code: "FAILED_TO_GET_USER_INFO" });
    const otherSub = await signIn({ token: unsignedJwt({ sub: "someone" }), accessToken: "a" });
    expect(otherSub.status).toBe(401);
    const noSub = await signIn({ token: unsignedJwt({ aud: "x" }), accessToken: "a" });
    expect(noSub.status).toBe(401);
    expect(await noSub.json()).toMatchObject({ code: "INVALID_TOKEN" });
    const ok = await signIn({ token: unsignedJwt({ sub: USER_ID }), accessToken: "a" });
    expect(ok.status).toBe(200);
    expect(fake.last("/userinfo")!.headers.authorization).toBe("Bearer a");
  });

  it("refreshes with HTTP Basic", () => expectRefresh(provider(), fake, { auth: "basic" }));
});
