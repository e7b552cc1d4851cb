import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { paypal, type PayPalOptions } from "../src/providers/paypal.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { AUTH, at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";
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
const BASIC = `Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString("base64")}`;

describe("paypal", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.on("GET /userinfo", { json: PROFILE });
    fake.tokens = {};
  });

  const provider = (options: Partial<PayPalOptions> = {}) =>
    paypal({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...options });

  it("redirect flow: PKCE, prompt, no scope or login_hint, Basic client auth, userinfo v1.1", async () => {
    const t = await providerInstance(provider({ prompt: "login" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "paypal", fake, { loginHint: "ada@example.com" });
      const q = result.authorize;
      expect(q.has("scope")).toBe(false);
      expect(q.get("code_challenge_method")).toBe("S256");
      expect(q.get("prompt")).toBe("login");
      expect(q.has("login_hint")).toBe(false);
      const token = fake.last("/token")!;
      expect(token.headers.authorization).toBe(BASIC);
      expect(token.form.has("client_secret")).toBe(false);
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      const info = fake.last("/userinfo")!;
      expect(info.query.get("schema")).toBe("paypalv1.1");
      expect(info.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "Ada Lovelace",
        email: "ada@example.com",
        emailVerified: true,
        image: "https://paypal.example/ada.png",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "paypal", accountId: USER_ID }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("an ID token in the token response must name userinfo's subject", async () => {
    fake.tokens = {
      id_token: unsignedJwt({ sub: "https://www.paypal.com/webapps/auth/identity/user/other" }),
    };
    const refused = await signInThrough(await providerInstance(provider()), "paypal", fake);
    expect(refused.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    fake.tokens = { id_token: unsignedJwt({ sub: USER_ID }) };
    const ok = await signInThrough(await providerInstance(provider()), "paypal", fake);
    expect(ok.session?.user).toMatchObject({ email: "ada@example.com" });
  });

  it("sandbox by default, live on request", async () => {
    const data = { state: "s", codeVerifier: "v".repeat(43), redirectURI: "http://x/cb" };
    const sandbox = await paypal(CLIENT).createAuthorizationURL(data);
    expect(sandbox.origin + sandbox.pathname).toBe("https://www.sandbox.paypal.com/signin/authorize");
    const live = await paypal({ ...CLIENT, environment: "live" }).createAuthorizationURL(data);
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

  it("refreshes with HTTP Basic", async () => {
    const tokens = await provider().refreshAccessToken!("refresh-token-1");
    expect(tokens.accessToken).toBe("access-token-1");
    const request = fake.last("/token")!;
    expect(request.form.get("grant_type")).toBe("refresh_token");
    expect(request.headers.authorization).toBe(BASIC);
  });
});
