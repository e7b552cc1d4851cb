import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ID, startIdP, type TestIdP } from "@latchkey/test-support";
import {
  accounts,
  AUTH,
  genericInstance,
  IDP_REDIRECTS,
  idpConfig,
  sessionOf,
  signIn,
  startFlow,
  startAliceIdP,
} from "./support/instance.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startAliceIdP();
  idp.accounts.set("bob-sub", { email: "bob@example.com", email_verified: true, name: "Bob" });
});
afterAll(() => idp.close());

const onCallback = (edit: (url: URL) => void) => (url: URL) => {
  if (url.pathname.startsWith("/api/auth/callback/")) edit(url);
  return url;
};

describe("a provider found by discovery", () => {
  it("signs in through the redirect flow with PKCE and a nonce, ending with a session", async () => {
    const { browser, store } = genericInstance({ config: [idpConfig(idp)] });
    idp.login("alice-sub");
    const authorize = new URL(await startFlow(browser, { provider: "idp" }));
    expect(authorize.origin + authorize.pathname).toBe(`${idp.issuer}/auth`);
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${AUTH}/callback/idp`);
    expect(authorize.searchParams.get("client_id")).toBe(CLIENT_ID);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("nonce")).toMatch(/^.{32}$/);
    // Discovery advertises ID-token algorithms: an OpenID provider, so `openid` is added first.
    expect(authorize.searchParams.get("scope")).toBe("openid email profile");

    const { location } = await browser.follow(authorize.href);
    expect(new URL(location).pathname).toBe("/dashboard");
    const session = await sessionOf(browser);
    expect(session?.user).toMatchObject({ email: "alice@example.com", name: "Alice", emailVerified: true });
    expect(accounts(store)).toHaveLength(1);
    expect(accounts(store)[0]).toMatchObject({ providerId: "idp", accountId: "alice-sub" });
    expect(accounts(store)[0]!.idToken).toBeTypeOf("string");
  });

  it("sends no PKCE with `pkce: false`", async () => {
    const loose = await startIdP(IDP_REDIRECTS, { pkceRequired: false });
    loose.accounts.set("alice-sub", { email: "alice@example.com", email_verified: true, name: "Alice" });
    try {
      const { browser } = genericInstance({ config: [idpConfig(loose, { pkce: false })] });
      loose.login("alice-sub");
      const authorize = new URL(await startFlow(browser, { provider: "idp" }));
      expect(authorize.searchParams.has("code_challenge")).toBe(false);
      const { location } = await browser.follow(authorize.href);
      expect(new URL(location).pathname).toBe("/dashboard");
      expect((await sessionOf(browser))?.user.email).toBe("alice@example.com");
    } finally {
      await loose.close();
    }
  });

  it("fills an additional user field from mapProfileToUser, but never the account id", async () => {
    const { browser, store } = genericInstance(
      {
        config: [
          idpConfig(idp, {
            mapProfileToUser: (profile) => ({ nickname: `the-${String(profile.name)}`, id: "forged" }),
          }),
        ],
      },
      { user: { additionalFields: { nickname: { type: "string", required: false } } } },
    );
    idp.login("bob-sub");
    await signIn(browser, { provider: "idp" });
    expect((await sessionOf(browser))?.user.nickname).toBe("the-Bob");
    expect(accounts(store)[0]!.accountId).toBe("bob-sub");
  });

  it("keys the account by accountSubject", async () => {
    const { browser, store } = genericInstance({
      config: [idpConfig(idp, { accountSubject: ({ profile }) => `tenant-a:${String(profile.sub)}` })],
    });
    idp.login("alice-sub");
    await signIn(browser, { provider: "idp" });
    expect(accounts(store)[0]!.accountId).toBe("tenant-a:alice-sub");
  });

  it("refuses an ID token whose nonce is not the one of this browser's state", async () => {
    const { browser, store } = genericInstance({ config: [idpConfig(idp)] });
    idp.login("alice-sub");
    const landed = await signIn(
      browser,
      { provider: "idp", errorCallbackURL: "/oops" },
      {
        rewrite: (url) => {
          // The IdP signs whatever nonce it is asked for: an ID token minted for another request.
          if (url.origin === idp.issuer && url.pathname === "/auth")
            url.searchParams.set("nonce", "n".repeat(32));
          return url;
        },
      },
    );
    expect(landed.pathname).toBe("/oops");
    expect(landed.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(await sessionOf(browser)).toBeNull();
    expect(store.user ?? []).toHaveLength(0);
  });

  it("refreshes the stored tokens through core's /refresh-token", async () => {
    const { browser, store } = genericInstance({ config: [idpConfig(idp)] });
    idp.login("alice-sub");
    await signIn(browser, { provider: "idp" });
    const row = accounts(store)[0]!;
    const before = row.accessToken;
    const res = await browser.post(`${AUTH}/refresh-token`, { accountId: row.id });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.accountId).toBe(row.id);
    expect(body.accessToken).toBeTypeOf("string");
    expect(body.accessToken).not.toBe(before);
    expect(accounts(store)[0]!.accessToken).toBe(body.accessToken);
  });

  it("accepts a client-submitted ID token verified against the discovered JWKS", async () => {
    const { browser, store } = genericInstance({ config: [idpConfig(idp)] });
    const token = await idp.signIdToken({
      sub: "carol-sub",
      email: "carol@example.com",
      email_verified: true,
    });
    const res = await browser.post(`${AUTH}/sign-in/social`, { provider: "idp", idToken: { token } });
    expect(res.status).toBe(200);
    expect(accounts(store)[0]).toMatchObject({ providerId: "idp", accountId: "carol-sub" });
    const forged = await browser.post(`${AUTH}/sign-in/social`, {
      provider: "idp",
      idToken: { token: `${token.slice(0, -4)}AAAA` },
    });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { code: string }).code).toBe("INVALID_TOKEN");
  });

  it("answers 404 PROVIDER_NOT_FOUND while discovery fails, and logs it", async () => {
    const errors: string[] = [];
    const { browser } = genericInstance(
      { config: [idpConfig(idp, { discoveryUrl: `${idp.issuer}/no-such-document` })] },
      { logger: { level: "error", log: (_level: string, message: string) => void errors.push(message) } },
    );
    const res = await browser.post(`${AUTH}/sign-in/social`, { provider: "idp", callbackURL: "/" });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe("PROVIDER_NOT_FOUND");
    expect(errors.some((m) => m.includes('Provider "idp": discovery failed'))).toBe(true);
  });
});

describe("issuer validation (RFC 9207)", () => {
  it("refuses a response naming another issuer, and one without `iss` once discovery says it is sent", async () => {
    const { browser } = genericInstance({ config: [idpConfig(idp)] });
    idp.login("alice-sub");
    const mismatch = await signIn(
      browser,
      { provider: "idp", errorCallbackURL: "/oops" },
      { rewrite: onCallback((url) => url.searchParams.set("iss", "https://attacker.example")) },
    );
    expect(mismatch.searchParams.get("error")).toBe("issuer_mismatch");
    const missing = await signIn(
      browser,
      { provider: "idp", errorCallbackURL: "/oops" },
      { rewrite: onCallback((url) => url.searchParams.delete("iss")) },
    );
    expect(missing.searchParams.get("error")).toBe("issuer_missing");
    expect(await sessionOf(browser)).toBeNull();
  });

  it("still honours the deprecated issuer and requireIssuerValidation options without discovery", async () => {
    const explicit = {
      discoveryUrl: undefined,
      authorizationUrl: `${idp.issuer}/auth`,
      tokenUrl: `${idp.issuer}/token`,
      userInfoUrl: `${idp.issuer}/me`,
      scopes: ["openid", "email", "profile"],
      // Without discovery the provider is plain OAuth 2.0 (subject `id`); this one answers `sub`.
      accountSubject: ({ profile }: { profile: Record<string, unknown> }) => String(profile.sub),
    };
    const strict = genericInstance({
      config: [idpConfig(idp, { ...explicit, issuer: idp.issuer, requireIssuerValidation: true })],
    });
    idp.login("alice-sub");
    const missing = await signIn(
      strict.browser,
      { provider: "idp", errorCallbackURL: "/oops" },
      { rewrite: onCallback((url) => url.searchParams.delete("iss")) },
    );
    expect(missing.searchParams.get("error")).toBe("issuer_missing");
    const ok = await signIn(strict.browser, { provider: "idp" });
    expect(ok.pathname).toBe("/dashboard");

    const pinned = genericInstance({
      config: [idpConfig(idp, { ...explicit, issuer: "https://elsewhere.example" })],
    });
    const mismatch = await signIn(pinned.browser, { provider: "idp", errorCallbackURL: "/oops" });
    expect(mismatch.searchParams.get("error")).toBe("issuer_mismatch");
  });
});
