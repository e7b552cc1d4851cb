import { beforeEach, describe, expect, it } from "vitest";
import { facebook, type FacebookOptions } from "../src/providers/facebook.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectParams, expectSignedIn, expectSignInError } from "./support/flow-expectations.ts";
import {
  AUTH,
  AUTHORIZATION_REQUEST,
  at,
  CLIENT,
  providerInstance,
  signInThrough,
  type ProviderInstance,
} from "./support/flow.ts";
import { useIdTokenSigners } from "./support/id-token-signer.ts";

const ENDPOINTS = {
  authorization: "/authorize",
  token: "/token",
  userInfo: "/me",
  debugToken: "/debug_token",
  jwks: "/jwks",
};
const GRAPH_USER = {
  id: "10158000000000001",
  name: "Ada Lovelace",
  email: "ada@example.com",
  picture: { data: { url: "https://graph.example/ada.jpg", is_silhouette: false } },
};
const LIMITED = {
  iss: "https://www.facebook.com",
  aud: CLIENT.clientId,
  sub: "10158000000000002",
  name: "Grace Hopper",
  email: "grace@example.com",
  picture: "https://limited.example/grace.jpg",
};

describe("facebook", () => {
  const fake = useFakeProvider();
  const signers = useIdTokenSigners(fake, "GET /jwks", "RS256", "ES256");
  beforeEach(() => {
    fake.on("GET /debug_token", {
      json: { data: { is_valid: true, app_id: CLIENT.clientId, user_id: GRAPH_USER.id } },
    });
    fake.on("GET /me", { json: GRAPH_USER });
  });

  const provider = (options: Partial<FacebookOptions> = {}) =>
    facebook({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...options });
  const idTokenSignIn = (t: ProviderInstance, idToken: Record<string, unknown>) =>
    t.browser.post(`${AUTH}/sign-in/social`, { provider: "facebook", idToken });

  it("redirect flow: login_hint and config_id, no PKCE or prompt, Graph profile after debug_token", async () => {
    const t = await providerInstance(provider({ configId: "cfg-1", prompt: "login", fields: ["birthday"] }), {
      sqlite: true,
    });
    const result = await signInThrough(t, "facebook", fake, { loginHint: "ada@example.com" });
    const q = result.authorize;
    expectParams(q, {
      scope: "email public_profile",
      login_hint: "ada@example.com",
      config_id: "cfg-1",
      code_challenge: null,
      prompt: null,
    });
    expect(fake.last("/token")!.form.has("code_verifier")).toBe(false);
    const debug = fake.last("/debug_token")!.query;
    expect(debug.get("input_token")).toBe("access-token-1");
    expect(debug.get("access_token")).toBe(`${CLIENT.clientId}|${CLIENT.clientSecret}`);
    const me = fake.last("/me")!;
    expect(me.query.get("fields")).toBe("id,name,email,picture,birthday");
    expect(me.headers.authorization).toBe("Bearer access-token-1");
    expectSignedIn(
      result,
      { providerId: "facebook", accountId: GRAPH_USER.id },
      {
        name: "Ada Lovelace",
        email: "ada@example.com",
        image: "https://graph.example/ada.jpg",
        emailVerified: false,
      },
    );
  });

  it("refuses a token debug_token does not vouch for, or a profile of another user", async () => {
    const answers = [
      { data: { is_valid: true, app_id: "another-app", user_id: GRAPH_USER.id } },
      { data: { is_valid: false, app_id: CLIENT.clientId, user_id: GRAPH_USER.id } },
      { data: { is_valid: true, app_id: CLIENT.clientId, user_id: "someone-else" } },
      { error: { message: "Invalid OAuth access token" } },
    ];
    for (const json of answers) {
      fake.on("GET /debug_token", { json });
      await expectSignInError(await providerInstance(provider()), "facebook", fake);
    }
  });

  it("email_verified from Graph counts when true", async () => {
    fake.on("GET /me", { json: { ...GRAPH_USER, email_verified: true } });
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.user.emailVerified).toBe(true);
  });

  it("Limited Login: an RS256 JWT is the profile (email never verified); other algorithms and issuers fail", async () => {
    const t = await providerInstance(provider());
    const res = await idTokenSignIn(t, { token: await signers.RS256.sign(LIMITED) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: Record<string, unknown> }).user).toMatchObject({
      name: "Grace Hopper",
      email: "grace@example.com",
      image: "https://limited.example/grace.jpg",
      emailVerified: false,
    });
    for (const token of [
      await signers.ES256.sign(LIMITED),
      await signers.RS256.sign({ ...LIMITED, iss: "https://facebook.com" }),
    ]) {
      const refused = await idTokenSignIn(t, { token });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ code: "INVALID_TOKEN" });
    }
  });

  it("an opaque token signs in through idToken.accessToken; without it 401 FAILED_TO_GET_USER_INFO", async () => {
    const t = await providerInstance(provider());
    const missing = await idTokenSignIn(t, { token: "EAAopaque" });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ code: "FAILED_TO_GET_USER_INFO" });
    const ok = await idTokenSignIn(t, { token: "EAAopaque", accessToken: "EAAaccess" });
    expect(ok.status).toBe(200);
    expect(fake.last("/debug_token")!.query.get("input_token")).toBe("EAAaccess");
    expect(((await ok.json()) as { user: Record<string, unknown> }).user).toMatchObject({
      email: "ada@example.com",
    });
  });

  it("uses the reference's Graph v24.0 endpoints by default", async () => {
    const url = await facebook(CLIENT).createAuthorizationURL(AUTHORIZATION_REQUEST);
    expect(url.origin + url.pathname).toBe("https://www.facebook.com/v24.0/dialog/oauth");
  });
});
