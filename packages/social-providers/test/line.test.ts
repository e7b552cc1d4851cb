import { describe, expect, it } from "vitest";
import { line } from "../src/providers/line.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectParams, expectSignedIn, expectSignInError } from "./support/flow-expectations.ts";
import { AUTH, AUTHORIZATION_REQUEST, at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";
import { unsignedJwt } from "./support/id-token-signer.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/userinfo", verify: "/verify" };
const CLAIMS = {
  iss: "https://access.line.me",
  aud: CLIENT.clientId,
  sub: "U1234567890abcdef1234567890abcdef",
  name: "Ada",
  picture: "https://profile.line-scdn.example/ada",
  email: "ada@example.com",
};

describe("line", () => {
  const fake = useFakeProvider();

  const provider = () => line({ ...CLIENT, prompt: "consent", endpoints: at(fake, ENDPOINTS) });

  it("signs in from the ID token with PKCE and login_hint; email never verified", async () => {
    fake.tokens = { id_token: unsignedJwt(CLAIMS) };
    const t = await providerInstance(provider(), { sqlite: true });
    const result = await signInThrough(t, "line", fake, { loginHint: "ada@example.com" });
    const q = result.authorize;
    expectParams(q, {
      scope: "openid profile email",
      code_challenge_method: "S256",
      login_hint: "ada@example.com",
      prompt: null,
    });
    expect(fake.last("/token")!.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
    expectSignedIn(
      result,
      { providerId: "line", accountId: CLAIMS.sub },
      {
        name: "Ada",
        email: "ada@example.com",
        emailVerified: false,
        image: "https://profile.line-scdn.example/ada",
      },
    );
  });

  it("without an ID token the profile is userinfo (no email: email_not_found)", async () => {
    fake.on("GET /userinfo", { json: { sub: "U2", name: "Bob", picture: "https://p/b" } });
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.user).toMatchObject({ name: "Bob", emailVerified: false });
    expect(fake.last("/userinfo")!.headers.authorization).toBe("Bearer t");
    await expectSignInError(await providerInstance(provider()), "line", fake, "email_not_found");
  });

  it("ID-token sign-in asks LINE's verify endpoint; aud and nonce must match", async () => {
    const t = await providerInstance(provider());
    const token = unsignedJwt(CLAIMS);
    const signIn = (nonce?: string) =>
      t.browser.post(`${AUTH}/sign-in/social`, { provider: "line", idToken: { token, nonce } });

    fake.on("POST /verify", { json: { ...CLAIMS, nonce: "n-1" } });
    const ok = await signIn("n-1");
    expect(ok.status).toBe(200);
    const request = fake.last("/verify")!;
    expect(request.form.get("id_token")).toBe(token);
    expect(request.form.get("client_id")).toBe(CLIENT.clientId);
    expect(request.form.get("nonce")).toBe("n-1");
    expect(((await ok.json()) as { user: Record<string, unknown> }).user).toMatchObject({
      email: "ada@example.com",
    });

    const wrongNonce = await signIn("n-2");
    expect(wrongNonce.status).toBe(401);
    expect(await wrongNonce.json()).toMatchObject({ code: "INVALID_TOKEN" });

    fake.on("POST /verify", { json: { ...CLAIMS, aud: "another-channel" } });
    expect((await signIn()).status).toBe(401);
    fake.on("POST /verify", {
      status: 400,
      json: { error: "invalid_request", error_description: "IdToken expired." },
    });
    expect((await signIn()).status).toBe(401);
  });

  it("uses LINE's endpoints by default", async () => {
    const url = await line(CLIENT).createAuthorizationURL(AUTHORIZATION_REQUEST);
    expect(url.origin + url.pathname).toBe("https://access.line.me/oauth2/v2.1/authorize");
  });
});
