import { describe, expect, it } from "vitest";
import { google, type GoogleOptions } from "../src/providers/google.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import {
  expectParams,
  expectRefresh,
  expectSignedIn,
  expectSignInError,
  expectTokenRequest,
} from "./support/flow-expectations.ts";
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

const ENDPOINTS = { authorization: "/authorize", token: "/token", jwks: "/certs" };
const CLAIMS = {
  iss: "https://accounts.google.com",
  aud: CLIENT.clientId,
  sub: "109876543210",
  email: "ada@example.com",
  email_verified: true,
  name: "Ada Lovelace",
  picture: "https://lh3.example/ada.png",
};

describe("google", () => {
  const fake = useFakeProvider();
  const signers = useIdTokenSigners(fake, "GET /certs", "RS256", "ES256");

  const provider = (options: Partial<GoogleOptions> = {}) =>
    google({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...options });
  const withIdToken = async (claims: Record<string, unknown>) => {
    fake.tokens = { id_token: await signers.RS256.sign({ ...CLAIMS, ...claims }) };
  };
  const idTokenSignIn = (t: ProviderInstance, token: string) =>
    t.browser.post(`${AUTH}/sign-in/social`, { provider: "google", idToken: { token } });

  it("signs in from the ID token with PKCE, login_hint, the reference's parameters and no nonce", async () => {
    await withIdToken({});
    const t = await providerInstance(provider({ accessType: "offline", prompt: "select_account" }), {
      sqlite: true,
    });
    const result = await signInThrough(t, "google", fake, { loginHint: "ada@example.com" });
    const q = result.authorize;
    expectParams(q, {
      scope: "email profile openid",
      code_challenge_method: "S256",
      login_hint: "ada@example.com",
      access_type: "offline",
      prompt: "select_account",
      include_granted_scopes: "true",
      nonce: null,
      hd: null,
    });
    expectTokenRequest(fake.last("/token"), { auth: "post", pkce: true });
    expectSignedIn(
      result,
      { providerId: "google", accountId: "109876543210" },
      {
        name: "Ada Lovelace",
        email: "ada@example.com",
        emailVerified: true,
        image: "https://lh3.example/ada.png",
      },
    );
  });

  it("sends display and hd, and leaves include_granted_scopes out when disabled", async () => {
    const p = provider({ display: "popup", hd: "example.com", includeGrantedScopes: false });
    const url = await p.createAuthorizationURL(AUTHORIZATION_REQUEST);
    expect(url.origin + url.pathname).toBe(fake.url("/authorize"));
    expect(url.searchParams.get("display")).toBe("popup");
    expect(url.searchParams.get("hd")).toBe("example.com");
    expect(url.searchParams.has("include_granted_scopes")).toBe(false);
    expect(url.searchParams.has("login_hint")).toBe(false);
  });

  it("names the reference's endpoints by default", async () => {
    const url = await google(CLIENT).createAuthorizationURL(AUTHORIZATION_REQUEST);
    expect(url.origin + url.pathname).toBe("https://accounts.google.com/o/oauth2/v2/auth");
  });

  it("refuses to start the redirect flow without a client secret", async () => {
    const p = google({ clientId: CLIENT.clientId, endpoints: at(fake, ENDPOINTS) });
    await expect(
      Promise.resolve().then(() => p.createAuthorizationURL(AUTHORIZATION_REQUEST)),
    ).rejects.toThrow(TypeError);
  });

  it("email_verified counts only as a real true; a missing name is empty", async () => {
    const info = await provider().getUserInfo({
      idToken: await signers.RS256.sign({ ...CLAIMS, email_verified: "true", name: undefined }),
    });
    expect(info?.user).toMatchObject({ emailVerified: false, name: "", email: "ada@example.com" });
  });

  it("a token response without an ID token ends with unable_to_get_user_info", async () => {
    const t = await providerInstance(provider());
    await expectSignInError(t, "google", fake);
  });

  it("hd: the callback refuses a token of another (or no) hosted domain; '*' takes any", async () => {
    await withIdToken({ hd: "other.com" });
    const strict = await providerInstance(provider({ hd: "example.com" }));
    await expectSignInError(strict, "google", fake);

    await withIdToken({});
    const any = await providerInstance(provider({ hd: "*" }));
    await expectSignInError(any, "google", fake);

    await withIdToken({ hd: "example.com" });
    const ok = await signInThrough(await providerInstance(provider({ hd: "*" })), "google", fake);
    expect(ok.session?.user).toMatchObject({ email: "ada@example.com" });
  });

  it("ID-token sign-in: RS256 from either issuer, any configured client id", async () => {
    const p = provider({ clientId: ["web-client", CLIENT.clientId] });
    const t = await providerInstance(p);
    const token = await signers.RS256.sign({ ...CLAIMS, iss: "accounts.google.com" });
    const res = await idTokenSignIn(t, token);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { redirect: boolean; user: Record<string, unknown> };
    expect(body.redirect).toBe(false);
    expect(body.user).toMatchObject({ email: "ada@example.com", name: "Ada Lovelace", emailVerified: true });
    expect(fake.last("/certs")).toBeDefined();
  });

  it("ID-token sign-in refuses another algorithm, issuer or audience, an old token and a wrong hd", async () => {
    const t = await providerInstance(provider({ hd: "example.com" }));
    const hour = 3600;
    const now = Math.floor(Date.now() / 1000);
    const bad = [
      await signers.ES256.sign({ ...CLAIMS, hd: "example.com" }),
      await signers.RS256.sign({ ...CLAIMS, hd: "example.com", iss: "https://evil.example" }),
      await signers.RS256.sign({ ...CLAIMS, hd: "example.com", aud: "someone-else" }),
      await signers.RS256.sign({ ...CLAIMS, hd: "example.com", iat: now - 2 * hour, exp: now + hour }),
      await signers.RS256.sign({ ...CLAIMS, hd: "other.com" }),
      await signers.RS256.sign({ ...CLAIMS }),
    ];
    for (const token of bad) {
      const res = await idTokenSignIn(t, token);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: "INVALID_TOKEN" });
    }
    const good = await idTokenSignIn(t, await signers.RS256.sign({ ...CLAIMS, hd: "example.com" }));
    expect(good.status).toBe(200);
  });

  it("refreshes at the token endpoint with the client secret", async () => {
    fake.tokens = { access_token: "access-token-2", refresh_token: undefined };
    await expectRefresh(provider(), fake, { auth: "post", accessToken: "access-token-2" });
  });
});
