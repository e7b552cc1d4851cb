import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { google, type GoogleOptions } from "../src/providers/google.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { AUTH, at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";
import { idTokenSigner, type IdTokenSigner } from "./support/id-token-signer.ts";

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
  let fake: FakeProvider;
  let rsa: IdTokenSigner;
  let ec: IdTokenSigner;
  beforeAll(async () => {
    fake = await startFakeProvider();
    rsa = await idTokenSigner("RS256");
    ec = await idTokenSigner("ES256");
    fake.on("GET /certs", { json: { keys: [...rsa.jwks.keys, ...ec.jwks.keys] } });
  });
  afterAll(() => fake.close());

  const provider = (options: Partial<GoogleOptions> = {}) =>
    google({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...options });
  const withIdToken = async (claims: Record<string, unknown>) => {
    fake.tokens = { id_token: await rsa.sign({ ...CLAIMS, ...claims }) };
  };
  const idTokenSignIn = (t: Awaited<ReturnType<typeof providerInstance>>, token: string) =>
    t.browser.post(`${AUTH}/sign-in/social`, { provider: "google", idToken: { token } });

  it("signs in from the ID token with PKCE, login_hint, the reference's parameters and no nonce", async () => {
    await withIdToken({});
    const t = await providerInstance(provider({ accessType: "offline", prompt: "select_account" }), {
      sqlite: true,
    });
    try {
      const result = await signInThrough(t, "google", fake, { loginHint: "ada@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      const q = result.authorize;
      expect(q.get("scope")).toBe("email profile openid");
      expect(q.get("code_challenge_method")).toBe("S256");
      expect(q.get("login_hint")).toBe("ada@example.com");
      expect(q.get("access_type")).toBe("offline");
      expect(q.get("prompt")).toBe("select_account");
      expect(q.get("include_granted_scopes")).toBe("true");
      expect(q.has("nonce")).toBe(false);
      expect(q.has("hd")).toBe(false);
      const token = fake.last("/token")!;
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(result.session?.user).toMatchObject({
        name: "Ada Lovelace",
        email: "ada@example.com",
        emailVerified: true,
        image: "https://lh3.example/ada.png",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "google", accountId: "109876543210" }),
      ]);
    } finally {
      t.cleanup();
      fake.tokens = {};
    }
  });

  it("sends display and hd, and leaves include_granted_scopes out when disabled", async () => {
    const p = provider({ display: "popup", hd: "example.com", includeGrantedScopes: false });
    const url = await p.createAuthorizationURL({
      state: "s",
      codeVerifier: "v".repeat(43),
      redirectURI: "http://localhost:3000/api/auth/callback/google",
    });
    expect(url.origin + url.pathname).toBe(fake.url("/authorize"));
    expect(url.searchParams.get("display")).toBe("popup");
    expect(url.searchParams.get("hd")).toBe("example.com");
    expect(url.searchParams.has("include_granted_scopes")).toBe(false);
    expect(url.searchParams.has("login_hint")).toBe(false);
  });

  it("names the reference's endpoints by default", async () => {
    const url = await google(CLIENT).createAuthorizationURL({
      state: "s",
      codeVerifier: "v".repeat(43),
      redirectURI: "http://localhost:3000/api/auth/callback/google",
    });
    expect(url.origin + url.pathname).toBe("https://accounts.google.com/o/oauth2/v2/auth");
  });

  it("refuses to start the redirect flow without a client secret", async () => {
    const p = google({ clientId: CLIENT.clientId, endpoints: at(fake, ENDPOINTS) });
    await expect(
      Promise.resolve().then(() =>
        p.createAuthorizationURL({ state: "s", codeVerifier: "v".repeat(43), redirectURI: "http://x/cb" }),
      ),
    ).rejects.toThrow(TypeError);
  });

  it("email_verified counts only as a real true; a missing name is empty", async () => {
    const info = await provider().getUserInfo({
      idToken: await rsa.sign({ ...CLAIMS, email_verified: "true", name: undefined }),
    });
    expect(info?.user).toMatchObject({ emailVerified: false, name: "", email: "ada@example.com" });
  });

  it("a token response without an ID token ends with unable_to_get_user_info", async () => {
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "google", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(result.session).toBeNull();
  });

  it("hd: the callback refuses a token of another (or no) hosted domain; '*' takes any", async () => {
    try {
      await withIdToken({ hd: "other.com" });
      const strict = await providerInstance(provider({ hd: "example.com" }));
      const refused = await signInThrough(strict, "google", fake);
      expect(refused.location.searchParams.get("error")).toBe("unable_to_get_user_info");

      await withIdToken({});
      const any = await providerInstance(provider({ hd: "*" }));
      const noClaim = await signInThrough(any, "google", fake);
      expect(noClaim.location.searchParams.get("error")).toBe("unable_to_get_user_info");

      await withIdToken({ hd: "example.com" });
      const ok = await signInThrough(await providerInstance(provider({ hd: "*" })), "google", fake);
      expect(ok.session?.user).toMatchObject({ email: "ada@example.com" });
    } finally {
      fake.tokens = {};
    }
  });

  it("ID-token sign-in: RS256 from either issuer, any configured client id", async () => {
    const p = provider({ clientId: ["web-client", CLIENT.clientId] });
    const t = await providerInstance(p);
    const token = await rsa.sign({ ...CLAIMS, iss: "accounts.google.com" });
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
      await ec.sign({ ...CLAIMS, hd: "example.com" }),
      await rsa.sign({ ...CLAIMS, hd: "example.com", iss: "https://evil.example" }),
      await rsa.sign({ ...CLAIMS, hd: "example.com", aud: "someone-else" }),
      await rsa.sign({ ...CLAIMS, hd: "example.com", iat: now - 2 * hour, exp: now + hour }),
      await rsa.sign({ ...CLAIMS, hd: "other.com" }),
      await rsa.sign({ ...CLAIMS }),
    ];
    for (const token of bad) {
      const res = await idTokenSignIn(t, token);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: "INVALID_TOKEN" });
    }
    const good = await idTokenSignIn(t, await rsa.sign({ ...CLAIMS, hd: "example.com" }));
    expect(good.status).toBe(200);
  });

  it("refreshes at the token endpoint with the client secret", async () => {
    fake.tokens = { access_token: "access-token-2", refresh_token: undefined };
    try {
      const tokens = await provider().refreshAccessToken!("refresh-token-1");
      expect(tokens.accessToken).toBe("access-token-2");
      const request = fake.last("/token")!;
      expect(request.form.get("grant_type")).toBe("refresh_token");
      expect(request.form.get("refresh_token")).toBe("refresh-token-1");
      expect(request.form.get("client_secret")).toBe(CLIENT.clientSecret);
    } finally {
      fake.tokens = {};
    }
  });
});
