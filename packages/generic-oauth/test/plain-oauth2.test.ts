import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT } from "jose";
import { gumroad, hubspot, line, patreon, slack, yandex, type GenericOAuthConfig } from "../src/index.ts";
import { accounts, AUTH, genericInstance, sessionOf, signIn, startFlow } from "./support/instance.ts";
import { startOAuth2Server, type OAuth2Server } from "./support/oauth2-server.ts";

const client = { clientId: "app-client", clientSecret: "app-secret" };
let server: OAuth2Server;

// Each vendor's profile endpoint, answering in that vendor's shape.
beforeAll(async () => {
  server = await startOAuth2Server({
    "/me": () => ({ id: 4711, email: "plain@example.com", name: "Plain", picture: "https://img.test/p.png" }),
    "/v2/user": () => ({
      success: true,
      user: { user_id: "g-1", name: "Gum", email: "gum@example.com", profile_url: "https://img.test/g.png" },
    }),
    "/oauth/v1/access-tokens/*": (req) => {
      const token = decodeURIComponent(req.path.split("/").pop() ?? "");
      return server.isAccessToken(token) ? { user: "hub@example.com", user_id: 987, hub_id: 1 } : undefined;
    },
    "/api/oauth2/v2/identity": () => ({
      data: {
        id: "p-42",
        type: "user",
        attributes: {
          email: "pat@example.com",
          full_name: "Pat Ron",
          image_url: "",
          is_email_verified: true,
        },
      },
    }),
    "/info": (req) =>
      req.headers.authorization?.startsWith("OAuth ")
        ? {
            id: "y-7",
            login: "yan",
            default_email: "yan@example.com",
            display_name: "Yan",
            default_avatar_id: "av-1",
            is_avatar_empty: false,
          }
        : undefined,
    "/slack/userinfo": () => ({ sub: "U123", email: "slack@example.com", email_verified: true, name: "Sla" }),
    "/line/userinfo": () => ({ sub: "L-userinfo", name: "Line UI" }),
  });
});
afterAll(() => server.close());

const endpoints = () => ({ authorizationUrl: `${server.url}/authorize`, tokenUrl: `${server.url}/token` });

describe("a plain OAuth 2.0 provider with explicit endpoints", () => {
  const plain = (extra: Partial<GenericOAuthConfig> = {}): GenericOAuthConfig => ({
    providerId: "plain",
    ...client,
    ...endpoints(),
    userInfoUrl: `${server.url}/me`,
    scopes: ["read:user"],
    ...extra,
  });

  it("signs in with PKCE, the secret in the form body, and the profile's `id` as account id", async () => {
    const { browser, store } = genericInstance({ config: [plain()] });
    const authorize = new URL(await startFlow(browser, { provider: "plain" }));
    expect(authorize.searchParams.get("scope")).toBe("read:user");
    expect(authorize.searchParams.has("nonce")).toBe(false);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    const { location } = await browser.follow(authorize.href);
    expect(new URL(location).pathname).toBe("/dashboard");
    const exchange = server.seen("/token").at(-1)!;
    expect(exchange.form.get("client_secret")).toBe("app-secret");
    expect(exchange.form.get("code_verifier")).toBeTruthy();
    expect(exchange.form.get("redirect_uri")).toBe(`${AUTH}/callback/plain`);
    expect(accounts(store)[0]).toMatchObject({ providerId: "plain", accountId: "4711" });
    // `email_verified` absent: not verified.
    expect((await sessionOf(browser))?.user).toMatchObject({
      email: "plain@example.com",
      emailVerified: false,
    });
  });

  it("sends neither challenge nor verifier with `pkce: false`, and HTTP Basic with authentication: basic", async () => {
    const { browser } = genericInstance({ config: [plain({ pkce: false, authentication: "basic" })] });
    const authorize = new URL(await startFlow(browser, { provider: "plain" }));
    expect(authorize.searchParams.has("code_challenge")).toBe(false);
    await browser.follow(authorize.href);
    const exchange = server.seen("/token").at(-1)!;
    expect(exchange.form.has("code_verifier")).toBe(false);
    expect(exchange.form.has("client_secret")).toBe(false);
    expect(exchange.headers.authorization).toBe(`Basic ${btoa("app-client:app-secret")}`);
    expect(await sessionOf(browser)).not.toBeNull();
  });

  it("refreshes through /refresh-token, with accessTokenExpiresIn when the provider sends no expires_in", async () => {
    const { browser, store } = genericInstance({
      config: [
        plain({ accessTokenExpiresIn: 600, refreshTokenParams: { audience: "api", grant_type: "x" } }),
      ],
    });
    await signIn(browser, { provider: "plain" });
    const row = accounts(store)[0]!;
    expect(row.accessTokenExpiresAt).toBeInstanceOf(Date);
    const res = await browser.post(`${AUTH}/refresh-token`, { accountId: row.id });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { accessToken: string; refreshToken: string };
    expect(server.isAccessToken(body.accessToken)).toBe(true);
    expect(body.refreshToken).not.toBe(row.refreshToken);
    const refresh = server.seen("/token").at(-1)!;
    expect(refresh.form.get("grant_type")).toBe("refresh_token");
    expect(refresh.form.get("audience")).toBe("api");
    // The provider rotated the refresh token and spent the old one: the new one was stored.
    expect(accounts(store)[0]!.refreshToken).toBe(body.refreshToken);
    const again = await browser.post(`${AUTH}/refresh-token`, { accountId: row.id });
    expect(again.status).toBe(200);
  });

  it("redirects with error=invalid_code when the provider refuses the code", async () => {
    const { browser } = genericInstance({ config: [plain()] });
    const landed = await signIn(
      browser,
      { provider: "plain", errorCallbackURL: "/oops" },
      {
        rewrite: (url) => {
          if (url.pathname === "/api/auth/callback/plain") url.searchParams.set("code", "forged");
          return url;
        },
      },
    );
    expect(landed.pathname).toBe("/oops");
    expect(landed.searchParams.get("error")).toBe("invalid_code");
  });

  it("redirects with error=email_not_found when the profile has no email", async () => {
    const { browser } = genericInstance({
      config: [plain({ getUserInfo: async () => ({ id: "no-mail", name: "Nobody" }) })],
    });
    const landed = await signIn(browser, { provider: "plain", errorCallbackURL: "/oops" });
    expect(landed.searchParams.get("error")).toBe("email_not_found");
  });
});

describe("plain OAuth 2.0 presets against a local stand-in", () => {
  it("gumroad: the `user` object, keyed by user_id, email never verified", async () => {
    const { browser, store } = genericInstance({
      config: [gumroad({ ...client, ...endpoints(), userInfoUrl: `${server.url}/v2/user` })],
    });
    const authorize = new URL(await startFlow(browser, { provider: "gumroad" }));
    expect(authorize.searchParams.get("scope")).toBe("view_profile");
    await browser.follow(authorize.href);
    expect(accounts(store)[0]).toMatchObject({ providerId: "gumroad", accountId: "g-1" });
    expect((await sessionOf(browser))?.user).toMatchObject({
      email: "gum@example.com",
      name: "Gum",
      image: "https://img.test/g.png",
      emailVerified: false,
    });
  });

  it("hubspot: token metadata looked up by the token in the path, keyed by user_id", async () => {
    const { browser, store } = genericInstance({
      config: [hubspot({ ...client, ...endpoints(), userInfoUrl: `${server.url}/oauth/v1/access-tokens` })],
    });
    const authorize = new URL(await startFlow(browser, { provider: "hubspot" }));
    expect(authorize.searchParams.get("scope")).toBe("oauth");
    await browser.follow(authorize.href);
    expect(server.seen("/token").at(-1)!.form.get("client_secret")).toBe("app-secret");
    expect(accounts(store)[0]).toMatchObject({ providerId: "hubspot", accountId: "987" });
    expect((await sessionOf(browser))?.user).toMatchObject({
      email: "hub@example.com",
      name: "hub@example.com",
    });
  });

  it("patreon: the JSON:API identity, keyed by data.id, with Patreon's own verification flag", async () => {
    const { browser, store } = genericInstance({
      config: [patreon({ ...client, ...endpoints(), userInfoUrl: `${server.url}/api/oauth2/v2/identity` })],
    });
    const authorize = new URL(await startFlow(browser, { provider: "patreon" }));
    expect(authorize.searchParams.get("scope")).toBe("identity[email]");
    await browser.follow(authorize.href);
    expect(accounts(store)[0]).toMatchObject({ providerId: "patreon", accountId: "p-42" });
    expect((await sessionOf(browser))?.user).toMatchObject({ email: "pat@example.com", emailVerified: true });
  });

  it("yandex: the `OAuth` authorization scheme, keyed by id, avatar URL from the avatar id", async () => {
    const { browser, store } = genericInstance({
      config: [yandex({ ...client, ...endpoints(), userInfoUrl: `${server.url}/info?format=json` })],
    });
    const authorize = new URL(await startFlow(browser, { provider: "yandex" }));
    expect(authorize.searchParams.get("scope")).toBe("login:info login:email login:avatar");
    await browser.follow(authorize.href);
    expect(server.seen("/info").at(-1)!.headers.authorization).toMatch(/^OAuth /);
    expect(accounts(store)[0]).toMatchObject({ providerId: "yandex", accountId: "y-7" });
    expect((await sessionOf(browser))?.user).toMatchObject({
      email: "yan@example.com",
      name: "Yan",
      image: "https://avatars.yandex.net/get-yapic/av-1/islands-200",
      emailVerified: false,
    });
  });

  it("slack: the UserInfo profile keyed by sub", async () => {
    const { browser, store } = genericInstance({
      config: [slack({ ...client, ...endpoints(), userInfoUrl: `${server.url}/slack/userinfo` })],
    });
    const authorize = new URL(await startFlow(browser, { provider: "slack" }));
    expect(authorize.searchParams.get("scope")).toBe("openid profile email");
    await browser.follow(authorize.href);
    expect(accounts(store)[0]).toMatchObject({ providerId: "slack", accountId: "U123" });
    expect((await sessionOf(browser))?.user).toMatchObject({
      email: "slack@example.com",
      emailVerified: true,
    });
  });

  it("line: the ID token of the token response, keyed by sub, email never verified", async () => {
    const idToken = await new SignJWT({
      sub: "L-1",
      name: "Lin",
      email: "line@example.com",
      email_verified: true,
    })
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode("line-channel-secret-0123456789abcdef"));
    server.tokenExtras.id_token = idToken;
    try {
      const { browser, store } = genericInstance({
        config: [
          line({
            ...client,
            ...endpoints(),
            userInfoUrl: `${server.url}/line/userinfo`,
            providerId: "line-jp",
          }),
        ],
      });
      await signIn(browser, { provider: "line-jp" });
      expect(accounts(store)[0]).toMatchObject({ providerId: "line-jp", accountId: "L-1" });
      expect((await sessionOf(browser))?.user).toMatchObject({
        email: "line@example.com",
        emailVerified: false,
      });
    } finally {
      delete server.tokenExtras.id_token;
    }
  });
});
