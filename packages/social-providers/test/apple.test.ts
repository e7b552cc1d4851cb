import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { apple, type AppleOptions } from "../src/providers/apple.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectParams } from "./support/flow-expectations.ts";
import {
  AUTH,
  AUTHORIZATION_REQUEST,
  at,
  CLIENT,
  providerInstance,
  type ProviderInstance,
} from "./support/flow.ts";
import { useIdTokenSigners } from "./support/id-token-signer.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", jwks: "/auth/keys" };
const CLAIMS = {
  iss: "https://appleid.apple.com",
  aud: CLIENT.clientId,
  sub: "001234.abcdef.1234",
  email: "ada@privaterelay.appleid.com",
  email_verified: "true",
};

describe("apple", () => {
  const fake = useFakeProvider();
  const signers = useIdTokenSigners(fake, "GET /auth/keys", "RS256");
  // Apple answers with an auto-submitting form; the test submits it (see formPostSignIn).
  fake.on("GET /authorize", ({ query }) => ({ json: { code: "apple-code", state: query.get("state") } }));

  const provider = (options: Partial<AppleOptions> = {}) =>
    apple({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...options });

  /** The browser's part of Apple's flow: the authorize page, then its form POST to the callback. */
  async function formPostSignIn(
    t: ProviderInstance,
    user?: Record<string, unknown>,
    body: Record<string, unknown> = {},
  ) {
    const start = await t.browser.post(`${AUTH}/sign-in/social`, {
      provider: "apple",
      callbackURL: "/dashboard",
      ...body,
    });
    const { url } = (await start.json()) as { url: string };
    const { code, state } = (await (await t.browser.send(url)).json()) as { code: string; state: string };
    const form = new URLSearchParams({ code, state });
    if (user) form.set("user", JSON.stringify(user));
    const posted = await t.browser.send(`${AUTH}/callback/apple`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect(posted.status).toBe(302);
    const { location } = await t.browser.follow(new URL(posted.headers.get("location")!, AUTH).href);
    const session = (await (await t.browser.send(`${AUTH}/get-session`)).json()) as {
      user: Record<string, unknown>;
    } | null;
    return { authorize: new URL(url).searchParams, location: new URL(location), session };
  }

  it("form_post flow: code id_token, PKCE, the name from the first sign-in's user payload", async () => {
    fake.tokens = { id_token: await signers.RS256.sign(CLAIMS) };
    const t = await providerInstance(provider({ prompt: "login" }), { sqlite: true });
    const first = await formPostSignIn(
      t,
      { name: { firstName: "Ada", lastName: "Lovelace" }, email: CLAIMS.email },
      { loginHint: "ada@example.com" },
    );
    const q = first.authorize;
    expectParams(q, {
      response_type: "code id_token",
      response_mode: "form_post",
      scope: "email name",
      code_challenge_method: "S256",
      login_hint: null,
      prompt: null,
      nonce: null,
    });
    expect(fake.last("/token")!.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
    expect(first.location.href).toBe("http://localhost:3000/dashboard");
    expect(first.session?.user).toMatchObject({
      name: "Ada Lovelace",
      email: CLAIMS.email,
      emailVerified: true,
      image: null,
    });
    const accounts = (await (await t.browser.send(`${AUTH}/list-accounts`)).json()) as unknown[];
    expect(accounts).toEqual([expect.objectContaining({ providerId: "apple", accountId: CLAIMS.sub })]);
  });

  it("without a user payload the name is the token's name, else empty", async () => {
    const p = provider();
    const named = await p.getUserInfo({
      idToken: await signers.RS256.sign({ ...CLAIMS, name: "From Token" }),
    });
    expect(named?.user.name).toBe("From Token");
    const plain = await p.getUserInfo({
      idToken: await signers.RS256.sign({ ...CLAIMS, email_verified: false }),
    });
    expect(plain?.user).toMatchObject({ name: "", emailVerified: false });
    expect(await p.getUserInfo({ accessToken: "only-an-access-token" })).toBeNull();
  });

  it("ID-token sign-in accepts the nonce or its SHA-256 hex, and takes the name from idToken.user", async () => {
    const t = await providerInstance(provider());
    const nonce = "nonce-from-the-app";
    const hashed = createHash("sha256").update(nonce).digest("hex");
    const res = await t.browser.post(`${AUTH}/sign-in/social`, {
      provider: "apple",
      idToken: {
        token: await signers.RS256.sign({ ...CLAIMS, nonce: hashed }),
        nonce,
        user: { name: { firstName: "Grace", lastName: "Hopper" } },
      },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: Record<string, unknown> }).user).toMatchObject({
      name: "Grace Hopper",
      emailVerified: true,
    });
    for (const claim of [nonce, hashed]) {
      const ok = await t.browser.post(`${AUTH}/sign-in/social`, {
        provider: "apple",
        idToken: { token: await signers.RS256.sign({ ...CLAIMS, nonce: claim }), nonce },
      });
      expect(ok.status).toBe(200);
    }
    const wrong = await t.browser.post(`${AUTH}/sign-in/social`, {
      provider: "apple",
      idToken: { token: await signers.RS256.sign({ ...CLAIMS, nonce: "other" }), nonce },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: "INVALID_TOKEN" });
  });

  it("audience: the bundle id replaces the client ids; `audience` replaces both", async () => {
    const bundle = await providerInstance(provider({ appBundleIdentifier: "com.example.app" }));
    const signIn = async (t: typeof bundle, aud: string) =>
      (
        await t.browser.post(`${AUTH}/sign-in/social`, {
          provider: "apple",
          idToken: { token: await signers.RS256.sign({ ...CLAIMS, aud }) },
        })
      ).status;
    expect(await signIn(bundle, "com.example.app")).toBe(200);
    expect(await signIn(bundle, CLIENT.clientId)).toBe(401);
    const listed = await providerInstance(
      provider({ appBundleIdentifier: "com.example.app", audience: ["a1", "a2"] }),
    );
    expect(await signIn(listed, "a2")).toBe(200);
    expect(await signIn(listed, "com.example.app")).toBe(401);
    const iss = await bundle.browser.post(`${AUTH}/sign-in/social`, {
      provider: "apple",
      idToken: {
        token: await signers.RS256.sign({ ...CLAIMS, aud: "com.example.app", iss: "https://evil" }),
      },
    });
    expect(iss.status).toBe(401);
  });

  it("uses Apple's endpoints by default", async () => {
    const url = await apple(CLIENT).createAuthorizationURL(AUTHORIZATION_REQUEST);
    expect(url.origin + url.pathname).toBe("https://appleid.apple.com/auth/authorize");
  });
});
