import { describe, expect, it } from "vitest";
import { cognito, type CognitoOptions } from "../src/providers/cognito.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectParams, expectSignedIn } from "./support/flow-expectations.ts";
import { AUTH, AUTHORIZATION_REQUEST, at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";
import { useIdTokenSigners } from "./support/id-token-signer.ts";

const POOL = {
  domain: "https://my-app.auth.eu-west-1.amazoncognito.com/",
  region: "eu-west-1",
  userPoolId: "eu-west-1_AbC123",
};
const ISSUER = "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123";
const ENDPOINTS = {
  authorization: "/authorize",
  token: "/token",
  userInfo: "/oauth2/userinfo",
  jwks: "/jwks.json",
};
const CLAIMS = {
  iss: ISSUER,
  aud: CLIENT.clientId,
  sub: "5b6f0c1e-1111-2222-3333-444455556666",
  token_use: "id",
  email: "ada@example.com",
  email_verified: true,
  given_name: "Ada",
  picture: "https://cdn.example/ada.png",
};

describe("cognito", () => {
  const fake = useFakeProvider();
  const signers = useIdTokenSigners(fake, "GET /jwks.json", "RS256");

  const provider = (options: Partial<CognitoOptions> = {}) =>
    cognito({ ...CLIENT, ...POOL, endpoints: at(fake, ENDPOINTS), ...options });

  it("redirect flow: PKCE, prompt, identity_provider, %20 scope; profile from the ID token", async () => {
    fake.tokens = { id_token: await signers.RS256.sign(CLAIMS) };
    const t = await providerInstance(provider({ prompt: "login", identityProvider: "Google" }), {
      sqlite: true,
    });
    const result = await signInThrough(t, "cognito", fake, { loginHint: "ada@example.com" });
    const raw = fake.last("/authorize")!;
    expect(raw.query.get("scope")).toBe("openid profile email");
    const start = (await t.browser
      .post(`${AUTH}/sign-in/social`, { provider: "cognito" })
      .then((r) => r.json())) as { url: string };
    expect(start.url).toContain("scope=openid%20profile%20email");
    expect(start.url).not.toContain("scope=openid+profile");
    const q = result.authorize;
    expectParams(q, {
      code_challenge_method: "S256",
      prompt: "login",
      identity_provider: "Google",
      login_hint: null,
    });
    expect(fake.last("/token")!.form.get("client_secret")).toBe(CLIENT.clientSecret);
    expectSignedIn(
      result,
      { providerId: "cognito", accountId: CLAIMS.sub },
      {
        name: "Ada",
        email: "ada@example.com",
        emailVerified: true,
        image: "https://cdn.example/ada.png",
      },
    );
  });

  it("without an ID token the profile is userinfo (email_verified as the string 'true')", async () => {
    fake.on("GET /oauth2/userinfo", {
      json: { sub: "u-2", email: "bob@example.com", email_verified: "true", username: "bob" },
    });
    const result = await signInThrough(await providerInstance(provider()), "cognito", fake);
    expect(fake.last("/oauth2/userinfo")!.headers.authorization).toBe("Bearer access-token-1");
    expect(result.session?.user).toMatchObject({
      name: "bob",
      email: "bob@example.com",
      emailVerified: true,
    });
    expect(result.accounts[0]).toMatchObject({ accountId: "u-2" });
  });

  it("builds its endpoints from domain, region and user pool; refuses an incomplete config", async () => {
    const url = await cognito({ ...CLIENT, ...POOL }).createAuthorizationURL(AUTHORIZATION_REQUEST);
    expect(url.origin + url.pathname).toBe(
      "https://my-app.auth.eu-west-1.amazoncognito.com/oauth2/authorize",
    );
    expect(() => cognito({ ...CLIENT, ...POOL, region: "" })).toThrow(TypeError);
    expect(() => cognito({ clientId: CLIENT.clientId, ...POOL, requireClientSecret: true })).toThrow(
      TypeError,
    );
  });

  it("ID-token sign-in against the pool's keys and issuer", async () => {
    const t = await providerInstance(provider());
    const signIn = async (claims: Record<string, unknown>) =>
      t.browser.post(`${AUTH}/sign-in/social`, {
        provider: "cognito",
        idToken: { token: await signers.RS256.sign({ ...CLAIMS, ...claims }) },
      });
    const ok = await signIn({ name: "Ada L." });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { user: Record<string, unknown> }).user).toMatchObject({ name: "Ada L." });
    expect(fake.last("/jwks.json")).toBeDefined();
    for (const claims of [{ iss: "https://cognito-idp.us-east-1.amazonaws.com/other" }, { aud: "other" }]) {
      const res = await signIn(claims);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: "INVALID_TOKEN" });
    }
  });
});
