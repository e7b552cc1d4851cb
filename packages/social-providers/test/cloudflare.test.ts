import { describe, expect, it } from "vitest";
import { cloudflare } from "../src/providers/cloudflare.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectRedirectSignIn, expectRefresh, expectSignInError } from "./support/flow-expectations.ts";
import { AUTHORIZATION_REQUEST, at, CLIENT, providerInstance } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/client/v4/user" };
const USER = {
  id: "7c5dae5552338874e5053f2534d2767a",
  email: "cf@example.com",
  first_name: "Flare",
  last_name: "Cloud",
};
const ok = (result: unknown) => ({ json: { success: true, errors: [], messages: [], result } });

describe("cloudflare", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof cloudflare>[0]> = {}) =>
    cloudflare({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE and Basic client auth, the profile from the API (on SQLite)", async () => {
    await expectRedirectSignIn(fake, {
      provider: provider({ prompt: "login" }),
      loginHint: "cf@example.com",
      authorize: {
        scope: "user-details.read",
        code_challenge_method: "S256",
        login_hint: null,
        prompt: null,
      },
      token: { auth: "basic", pkce: true },
      profile: { route: "GET /client/v4/user", answer: ok(USER) },
      accountId: USER.id,
      user: {
        name: "Flare Cloud",
        email: "cf@example.com",
        emailVerified: false,
        image: null,
      },
    });
  });

  it("caller parameters are dropped; a user without names gets an empty name (spec, Social sign-in 6)", async () => {
    const url = await provider().createAuthorizationURL({
      ...AUTHORIZATION_REQUEST,
      additionalParams: { foo: "bar" },
    });
    expect(url.searchParams.has("foo")).toBe(false);
    fake.on(
      "GET /client/v4/user",
      ok({ id: "1", email: "n@example.com", first_name: null, last_name: null }),
    );
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user.name).toBe("");
    fake.on("GET /client/v4/user", ok({ id: "2", email: "n@example.com", first_name: "Only" }));
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user.name).toBe("Only");
  });

  it("tokenEndpointAuthMethod: post puts the secret in the form; none sends only the client id", async () => {
    await expectRefresh(provider({ tokenEndpointAuthMethod: "client_secret_post" }), fake, {
      auth: "post",
      refreshToken: "r",
    });
    const publicClient = cloudflare({
      clientId: CLIENT.clientId,
      tokenEndpointAuthMethod: "none",
      endpoints: at(fake, ENDPOINTS),
    });
    await publicClient.refreshAccessToken!("r");
    const token = fake.last("/token")!;
    expect(token.headers.authorization).toBeUndefined();
    expect(token.form.get("client_id")).toBe(CLIENT.clientId);
    expect(token.form.has("client_secret")).toBe(false);
    expect(() => provider({ tokenEndpointAuthMethod: "none" })).toThrow(TypeError);
  });

  it("an unsuccessful API answer ends with unable_to_get_user_info", async () => {
    fake.on("GET /client/v4/user", {
      json: { success: false, errors: [{ code: 9109, message: "Unauthorized" }] },
    });
    const t = await providerInstance(provider());
    await expectSignInError(t, "cloudflare", fake);
    fake.on("GET /client/v4/user", { status: 403, json: { success: false } });
    expect(await provider().getUserInfo({ accessToken: "t" })).toBeNull();
  });

  it("refreshes with Basic client auth", () => expectRefresh(provider(), fake, { auth: "basic" }));
});
