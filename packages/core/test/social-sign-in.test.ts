import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Account, User } from "../src/index.ts";
import { mapStorage } from "./support/map-storage.ts";
import { createOutbox } from "./support/outbox.ts";
import { CLIENT_ID } from "@latchkey/test-support";
import type { TestIdP } from "@latchkey/test-support";
import {
  AUTH,
  sessionOf,
  socialInstance,
  socialSignIn,
  startSignIn,
  startTestIdP,
} from "./support/social.ts";
import { BASE } from "./support/instance.ts";
import { Browser } from "@latchkey/test-support";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startTestIdP();
});
afterAll(() => idp.close());

const accounts = (store: Record<string, unknown[]>) => (store.account ?? []) as Account[];
const users = (store: Record<string, unknown[]>) => (store.user ?? []) as User[];

describe("POST /sign-in/social (redirect flow)", () => {
  it("answers the authorization URL with PKCE S256, a nonce and state, a Location header and the state cookie", async () => {
    const t = socialInstance(idp);
    const res = await t.browser.post(`${AUTH}/sign-in/social`, {
      provider: "idp",
      callbackURL: "/dashboard",
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { url: string; redirect: boolean };
    expect(body.redirect).toBe(true);
    expect(res.headers.get("location")).toBe(body.url);
    const url = new URL(body.url);
    expect(url.origin).toBe(idp.issuer);
    const q = url.searchParams;
    expect(q.get("client_id")).toBe(CLIENT_ID);
    expect(q.get("redirect_uri")).toBe(`${AUTH}/callback/idp`);
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("state")).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(q.get("nonce")).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(q.get("scope")!.split(" ")).toEqual(["openid", "profile", "email"]);
    expect(t.browser.appCookies().has("better-auth.state")).toBe(true);
    // The state is a verification row under the raw state value.
    expect(t.store.verification!.map((r) => r.identifier)).toEqual([q.get("state")]);
  });

  it("disableRedirect: no Location header; unknown provider: 404 PROVIDER_NOT_FOUND; reserved additionalParams: 400", async () => {
    const t = socialInstance(idp);
    const res = await t.post("/sign-in/social", { provider: "idp", disableRedirect: true });
    expect(res.headers.get("location")).toBeNull();
    expect((await res.json()).redirect).toBe(false);
    const unknown = await t.post("/sign-in/social", { provider: "nope" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ code: "PROVIDER_NOT_FOUND", message: "Provider not found" });
    const reserved = await t.post("/sign-in/social", {
      provider: "idp",
      additionalParams: { redirect_uri: "https://evil.test" },
    });
    expect(reserved.status).toBe(400);
    expect((await reserved.json()).message).toMatch(
      /^\[body\.additionalParams\] additionalParams cannot include reserved OAuth parameters/,
    );
    // Only the flow started with disableRedirect stored a state.
    expect(t.count("verification")).toBe(1);
  });
});

describe("POST /sign-in/social, /link-social: provider validation (the reference's enum-or-string union)", () => {
  it("a missing or non-string provider is 400 VALIDATION_ERROR '[body.provider] Invalid input'", async () => {
    const t = socialInstance(idp);
    for (const body of [{ callbackURL: "/d" }, { provider: 5 }, { provider: null }, { provider: ["idp"] }]) {
      const res = await t.post("/sign-in/social", body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        code: "VALIDATION_ERROR",
        message: "[body.provider] Invalid input",
      });
    }
    const signUp = await t.post("/sign-up/email", {
      email: "a@example.com",
      password: "password-1234",
      name: "A",
    });
    const cookie = signUp.headers.getSetCookie()[0]!.split(";")[0]!;
    const link = await t.post("/link-social", { callbackURL: "/d" }, { cookie });
    expect(await link.json()).toEqual({ code: "VALIDATION_ERROR", message: "[body.provider] Invalid input" });
    // Other fields keep their typed wording.
    const typed = await t.post("/sign-in/social", { provider: "idp", callbackURL: 1 });
    expect(((await typed.json()) as { message: string }).message).toBe(
      "[body.callbackURL] Invalid input: expected string, received number",
    );
    expect(t.count("verification")).toBe(0);
  });
});

describe("GET /callback/:id (full redirect flows against a real IdP)", () => {
  it("a new user: user and account created, session set, lands on newUserCallbackURL", async () => {
    const t = socialInstance(idp);
    const landed = await socialSignIn(idp, t.browser, "alice-sub", { newUserCallbackURL: "/welcome" });
    expect(landed.href).toBe(`${BASE}/welcome`);
    const session = await sessionOf(t.browser);
    expect(session?.user).toMatchObject({
      email: "alice@example.com",
      name: "Alice",
      emailVerified: true,
      image: "https://img.test/a.png",
    });
    const [account] = accounts(t.store);
    expect(account).toMatchObject({ providerId: "idp", accountId: "alice-sub", userId: session!.user.id });
    expect(account!.scope!.split(",").sort()).toEqual(["email", "openid", "profile"]);
    expect(account!.accessToken).toBeTruthy();
    expect(account!.refreshToken).toBeTruthy();
    expect(account!.idToken!.split(".")).toHaveLength(3);
    expect(account!.accessTokenExpiresAt).toBeInstanceOf(Date);
    // The state is single-use: gone once the callback consumed it; its cookie is expired.
    expect(t.count("verification")).toBe(0);
    expect(t.browser.appCookies().has("better-auth.state")).toBe(false);
  });

  it("a returning user: same user, tokens refreshed, scope never rewritten, lands on callbackURL", async () => {
    const t = socialInstance(idp);
    await socialSignIn(idp, t.browser, "bob-sub");
    const [first] = accounts(t.store);
    first!.scope = "openid,legacy-scope";
    const firstToken = first!.accessToken;
    const browser2 = new Browser(BASE, t.auth.handler);
    const landed = await socialSignIn(idp, browser2, "bob-sub", { newUserCallbackURL: "/welcome" });
    expect(landed.href).toBe(`${BASE}/dashboard`);
    expect(users(t.store)).toHaveLength(1);
    expect(accounts(t.store)).toHaveLength(1);
    expect(accounts(t.store)[0]!.accessToken).not.toBe(firstToken);
    expect(accounts(t.store)[0]!.scope).toBe("openid,legacy-scope");
    expect(t.count("session")).toBe(2);
  });

  it("no name from the provider: the user gets an empty name, not the email (spec, Social sign-in 6)", async () => {
    const t = socialInstance(idp);
    await socialSignIn(idp, t.browser, "nameless-sub");
    expect(users(t.store)[0]).toMatchObject({ email: "nameless@example.com", name: "" });
  });

  it("no email from the provider: email_not_found to the error callback; nothing written", async () => {
    const t = socialInstance(idp);
    const landed = await socialSignIn(idp, t.browser, "noemail-sub", { errorCallbackURL: "/oops" });
    expect(landed.pathname).toBe("/oops");
    expect(landed.searchParams.get("error")).toBe("email_not_found");
    expect(t.count("user")).toBe(0);
  });

  it("a provider error is passed on with its description (prompt=none without an IdP session)", async () => {
    const t = socialInstance(idp);
    const landed = await socialSignIn(idp, t.browser, "alice-sub", {
      errorCallbackURL: "/oops?x=1",
      additionalParams: { prompt: "none" },
    });
    expect(landed.pathname).toBe("/oops");
    expect(landed.searchParams.get("x")).toBe("1");
    expect(landed.searchParams.get("error")).toBe("login_required");
    expect(landed.searchParams.get("error_description")).toBeTruthy();
  });

  it("disableSignUp: signup_disabled; disableImplicitSignUp needs requestSignUp", async () => {
    const off = socialInstance(idp, {}, { disableSignUp: true });
    const refused = await socialSignIn(idp, off.browser, "alice-sub", { errorCallbackURL: "/oops" });
    expect(refused.searchParams.get("error")).toBe("signup_disabled");
    expect(off.count("user")).toBe(0);
    const implicit = socialInstance(idp, {}, { disableImplicitSignUp: true });
    expect(
      (
        await socialSignIn(idp, implicit.browser, "alice-sub", { errorCallbackURL: "/oops" })
      ).searchParams.get("error"),
    ).toBe("signup_disabled");
    const asked = await socialSignIn(idp, implicit.browser, "alice-sub", { requestSignUp: true });
    expect(asked.pathname).toBe("/dashboard");
    expect(implicit.count("user")).toBe(1);
  });

  it("a required additional user field without value: MISSING_FIELD; mapped profile fields fill it", async () => {
    const fields = { user: { additionalFields: { nickname: { type: "string" as const, required: true } } } };
    const missing = socialInstance(idp, fields);
    const landed = await socialSignIn(idp, missing.browser, "alice-sub", { errorCallbackURL: "/oops" });
    expect(landed.searchParams.get("error")).toBe("MISSING_FIELD");
    expect(landed.searchParams.get("error_description")).toBe("nickname is required");
    expect(missing.count("user")).toBe(0);
    const mapped = socialInstance(idp, fields, {
      mapProfileToUser: (p) => ({ nickname: `nick-${String(p.name)}` }),
    });
    await socialSignIn(idp, mapped.browser, "alice-sub");
    expect(users(mapped.store)[0]).toMatchObject({ nickname: "nick-Alice", name: "Alice" });
  });

  it("the POST (form_post) callback becomes a GET of the same parameters", async () => {
    const t = socialInstance(idp);
    const res = await t.post("/callback/idp", "code=abc&state=xyz", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${AUTH}/callback/idp?code=abc&state=xyz`);
  });

  it("encryptOAuthTokens: access and refresh tokens encrypted, the ID token plain; the routes read them", async () => {
    const t = socialInstance(idp, { account: { encryptOAuthTokens: true } });
    await socialSignIn(idp, t.browser, "alice-sub");
    const [account] = accounts(t.store);
    expect(account!.accessToken).toMatch(/^[0-9a-f]+$/);
    expect(account!.refreshToken).toMatch(/^[0-9a-f]+$/);
    expect(account!.idToken!.split(".")).toHaveLength(3);
    const res = await t.browser.post(`${AUTH}/get-access-token`, { accountId: account!.id });
    const body = (await res.json()) as { accessToken: string };
    expect(res.status).toBe(200);
    expect(body.accessToken).not.toBe(account!.accessToken);
    const info = await t.browser.send(`${AUTH}/account-info?accountId=${account!.id}`);
    expect(info.status).toBe(200);
  });

  it("state through secondary storage with hashed identifiers; getOAuthState sees additionalData at the top level, never a client's serverContext", async () => {
    const kv = mapStorage();
    let seen: Record<string, unknown> | null = null;
    const { createAuthMiddleware, getOAuthState } = await import("../src/index.ts");
    const t = socialInstance(idp, {
      secondaryStorage: kv.storage,
      verification: { storeIdentifier: "hashed" },
      hooks: {
        after: createAuthMiddleware(async (ctx) => {
          if (ctx.path === "/callback/:id") seen = getOAuthState(ctx);
        }),
      },
    });
    idp.login("alice-sub");
    // A client cannot forge the server-set `serverContext` through additionalData.
    const url = await startSignIn(t.browser, {
      additionalData: { invite: "abc", serverContext: { forged: true } },
    });
    const state = new URL(url).searchParams.get("state")!;
    // Stored under the SHA-256 of the state, not the state itself; no database row.
    const hashed = Buffer.from(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(state)),
    ).toString("base64url");
    expect(kv.keys()).toEqual([`verification:${hashed}`]);
    expect(kv.ttl(`verification:${hashed}`)).toBeGreaterThan(590);
    expect(t.count("verification")).toBe(0);
    const { location } = await t.browser.follow(url);
    expect(new URL(location).pathname).toBe("/dashboard");
    expect(seen).toMatchObject({ invite: "abc", callbackURL: "/dashboard" });
    expect((seen as unknown as Record<string, unknown>).additionalData).toBeUndefined();
    expect((seen as unknown as Record<string, unknown>).serverContext).toBeUndefined();
    expect(kv.keys().filter((k) => k.startsWith("verification:"))).toEqual([]);
  });

  it("updateAccountOnSignIn: false keeps the stored tokens; overrideUserInfoOnSignIn rewrites the profile", async () => {
    const t = socialInstance(
      idp,
      { account: { updateAccountOnSignIn: false } },
      { overrideUserInfoOnSignIn: true },
    );
    await socialSignIn(idp, t.browser, "alice-sub");
    const stored = accounts(t.store)[0]!.accessToken;
    users(t.store)[0]!.name = "Renamed locally";
    await socialSignIn(idp, new Browser(BASE, t.auth.handler), "alice-sub");
    expect(accounts(t.store)[0]!.accessToken).toBe(stored);
    expect(users(t.store)[0]!.name).toBe("Alice");
  });

  it("requireEmailVerification: an unverified provider email creates the user but no session (email_not_verified), and mails a link", async () => {
    const outbox = createOutbox();
    const t = socialInstance(
      idp,
      { emailVerification: { sendVerificationEmail: outbox.sendVerificationEmail } },
      { requireEmailVerification: true },
    );
    const landed = await socialSignIn(idp, t.browser, "unverified-sub", { errorCallbackURL: "/oops" });
    expect(landed.searchParams.get("error")).toBe("email_not_verified");
    expect(await sessionOf(t.browser)).toBeNull();
    expect(users(t.store)[0]).toMatchObject({ email: "victim@example.com", emailVerified: false });
    expect(outbox.last("verification").to).toBe("victim@example.com");
  });

  it("allowIdpInitiated: a callback with a code and no state restarts the flow with state and PKCE", async () => {
    const t = socialInstance(idp, {}, { allowIdpInitiated: true });
    const res = await t.browser.send(`${AUTH}/callback/idp?code=from-the-idp`);
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get("location")!);
    expect(to.origin).toBe(idp.issuer);
    expect(to.searchParams.get("code_challenge_method")).toBe("S256");
    expect(t.count("verification")).toBe(1);
    const off = socialInstance(idp);
    const refused = await off.browser.send(`${AUTH}/callback/idp?code=from-the-idp`);
    expect(refused.headers.get("location")).toBe(`${AUTH}/error?error=state_not_found`);
  });
});

describe("configuration", () => {
  it("misconfigured social options are TypeErrors at createAuth", async () => {
    const { createAuth, memoryAdapter } = await import("../src/index.ts");
    const { idpProvider } = await import("./support/social.ts");
    const base = { database: memoryAdapter(), secret: "s".repeat(40), baseURL: BASE };
    expect(() => createAuth({ ...base, socialProviders: { other: idpProvider(idp) } })).toThrow(TypeError);
    expect(() => createAuth({ ...base, account: { storeStateStrategy: "cookie" as "database" } })).toThrow(
      TypeError,
    );
  });

  it("a reference-style config is built by the factory a plugin registers in init", async () => {
    const { idpProvider } = await import("./support/social.ts");
    const t = socialInstance(idp, {
      socialProviders: { idp: { clientId: "from-config" } },
      plugins: [
        {
          id: "test-providers",
          init: () => ({ socialProviderFactories: { idp: () => idpProvider(idp) } }),
        },
      ],
    });
    const landed = await socialSignIn(idp, t.browser, "alice-sub");
    expect(landed.pathname).toBe("/dashboard");
  });

  it("a config its factory refuses is logged with the reason and not offered: 404 PROVIDER_NOT_FOUND, never a 500", async () => {
    const logged: string[] = [];
    const t = socialInstance(idp, {
      socialProviders: { idp: { clientId: "from-config" } },
      logger: { log: (level, message) => void logged.push(`${level} ${message}`) },
      plugins: [
        {
          id: "test-providers",
          init: () => ({
            socialProviderFactories: {
              idp: () => {
                throw new TypeError("idp needs a clientSecret.");
              },
            },
          }),
        },
      ],
    });
    for (let i = 0; i < 2; i++) {
      const res = await t.browser.post(`${AUTH}/sign-in/social`, { provider: "idp", callbackURL: "/" });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: "PROVIDER_NOT_FOUND" });
    }
    // Built once: the reason is logged once, not on every request.
    expect(logged.filter((l) => l.includes("cannot be built"))).toEqual([
      'error Social provider "idp" cannot be built from its config: idp needs a clientSecret.',
    ]);
  });
});
