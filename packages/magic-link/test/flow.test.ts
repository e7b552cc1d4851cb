import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAuth } from "@latchkey/test-support";
import { client, linkPath, magicInstance, requestLink, type Outbox } from "./instance.ts";

describe("sign-in link and verification (SQLite)", () => {
  let t: TestAuth & { outbox: Outbox };
  beforeAll(async () => {
    t = await magicInstance("sqlite");
  });
  afterAll(() => t.close());

  it("mails a link with the reference's shape: token of 32 letters, callbackURL defaulting to /", async () => {
    const browser = client(t.auth);
    const answer = await browser.post("/sign-in/magic-link", { email: "New@Example.com", name: "Ada", metadata: { a: 1 } });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: true });
    const mail = t.outbox.at(-1)!;
    expect(mail.email).toBe("New@Example.com");
    expect(mail.token).toMatch(/^[a-zA-Z]{32}$/);
    expect(mail.metadata).toEqual({ a: 1 });
    expect(mail.url).toBe(`http://localhost:3000/api/auth/magic-link/verify?token=${mail.token}&callbackURL=%2F`);
    const row = await t.auth.$context.adapter.findOne<{ identifier: string; value: string; expiresAt: Date }>({
      model: "verification",
      where: [{ field: "identifier", value: mail.token }],
    });
    expect(JSON.parse(row!.value)).toEqual({ email: "New@Example.com", name: "Ada" });
    const lifetime = row!.expiresAt.getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(295_000);
    expect(lifetime).toBeLessThanOrEqual(300_000);
  });

  it("without callbackURL: creates the user (email verified) and answers { token, user, session } with the cookie", async () => {
    const browser = client(t.auth);
    const mail = await requestLink(browser, t.outbox, { email: "first@example.com", name: "First" });
    const answer = await browser.get<{ token: string; user: Record<string, unknown>; session: Record<string, unknown> }>(
      `/magic-link/verify?token=${mail.token}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.json!.user).toMatchObject({ email: "first@example.com", name: "First", emailVerified: true });
    expect(answer.json!.session).toMatchObject({ token: answer.json!.token, userId: answer.json!.user.id });
    expect((await browser.get<{ user: { email: string } }>("/get-session")).json?.user.email).toBe("first@example.com");
  });

  it("redirects a new user to newUserCallbackURL and a returning one to callbackURL", async () => {
    const browser = client(t.auth);
    const first = await requestLink(browser, t.outbox, {
      email: "redirect@example.com",
      callbackURL: "/home",
      newUserCallbackURL: "/welcome",
    });
    expect(first.url).toContain("newUserCallbackURL=%2Fwelcome");
    const created = await browser.get(linkPath(first.url));
    expect(created.status).toBe(302);
    expect(created.headers.get("location")).toBe("http://localhost:3000/welcome");
    expect(created.response.headers.getSetCookie().some((c) => c.startsWith("better-auth.session_token="))).toBe(true);
    const again = await requestLink(browser, t.outbox, { email: "redirect@example.com", callbackURL: "/home", newUserCallbackURL: "/welcome" });
    const returning = await browser.get(linkPath(again.url));
    expect(returning.headers.get("location")).toBe("http://localhost:3000/home");
  });

  it("a used, unknown or expired token redirects with ?error=INVALID_TOKEN to errorCallbackURL, else callbackURL", async () => {
    const browser = client(t.auth);
    const mail = await requestLink(browser, t.outbox, { email: "once@example.com", callbackURL: "/in", errorCallbackURL: "/oops" });
    expect((await browser.get(linkPath(mail.url))).headers.get("location")).toBe("http://localhost:3000/in");
    const replay = await browser.get(linkPath(mail.url));
    expect(replay.status).toBe(302);
    expect(replay.headers.get("location")).toBe("http://localhost:3000/oops?error=INVALID_TOKEN");
    const unknown = await browser.get("/magic-link/verify?token=nope&callbackURL=/in");
    expect(unknown.headers.get("location")).toBe("http://localhost:3000/in?error=INVALID_TOKEN");
    const bare = await browser.get("/magic-link/verify?token=nope");
    expect(bare.status).toBe(302);
    expect(bare.headers.get("location")).toBe("http://localhost:3000/?error=INVALID_TOKEN");

    const late = await requestLink(browser, t.outbox, { email: "late@example.com" });
    await t.auth.$context.adapter.updateMany({
      model: "verification",
      where: [{ field: "identifier", value: late.token }],
      update: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await browser.get(`/magic-link/verify?token=${late.token}`);
    expect(expired.headers.get("location")).toBe("http://localhost:3000/?error=INVALID_TOKEN");
    expect(await t.auth.$context.internalAdapter.findUserByEmail("late@example.com")).toBeNull();
  });

  it("an unverified existing user: password, OAuth links and sessions are revoked before verifying (spec: States)", async () => {
    const squatter = client(t.auth);
    const signUp = await squatter.post<{ user: { id: string } }>("/sign-up/email", {
      email: "victim@example.com",
      password: "squatter-password",
      name: "Squatter",
    });
    const userId = signUp.json!.user.id;
    const ia = t.auth.$context.internalAdapter;
    await ia.linkAccount({ userId, providerId: "github", accountId: "gh-squatter" });
    expect((await ia.findAccounts(userId)).length).toBe(2);

    const owner = client(t.auth);
    const mail = await requestLink(owner, t.outbox, { email: "victim@example.com" });
    const answer = await owner.get<{ user: { id: string; emailVerified: boolean } }>(`/magic-link/verify?token=${mail.token}`);
    expect(answer.json!.user).toMatchObject({ id: userId, emailVerified: true });
    expect(await ia.findAccounts(userId)).toEqual([]);
    expect((await squatter.get("/get-session")).json).toBeNull();
    expect((await owner.get<{ user: { id: string } }>("/get-session")).json?.user.id).toBe(userId);
    const oldPassword = await squatter.post("/sign-in/email", { email: "victim@example.com", password: "squatter-password" });
    expect(oldPassword.status).toBe(401);
  });

  it("a verified user keeps their password and other sessions", async () => {
    const browser = client(t.auth);
    const signUp = await browser.post<{ user: { id: string } }>("/sign-up/email", {
      email: "kept@example.com",
      password: "kept-password-1",
      name: "Kept",
    });
    const userId = signUp.json!.user.id;
    await t.auth.$context.internalAdapter.updateUser(userId, { emailVerified: true });
    const other = client(t.auth);
    const mail = await requestLink(other, t.outbox, { email: "kept@example.com" });
    expect((await other.get(`/magic-link/verify?token=${mail.token}`)).status).toBe(200);
    expect((await browser.get<{ user: { id: string } }>("/get-session")).json?.user.id).toBe(userId);
    expect((await t.auth.$context.internalAdapter.findAccounts(userId)).length).toBe(1);
  });
});

describe("options", () => {
  it("disableSignUp: an unknown address gets ?error=new_user_signup_disabled and no user", async () => {
    const t = await magicInstance("sqlite", { disableSignUp: true });
    try {
      const browser = client(t.auth);
      const mail = await requestLink(browser, t.outbox, { email: "nobody@example.com", callbackURL: "/in" });
      const answer = await browser.get(linkPath(mail.url));
      expect(answer.headers.get("location")).toBe("http://localhost:3000/in?error=new_user_signup_disabled");
      expect(await t.auth.$context.internalAdapter.findUserByEmail("nobody@example.com")).toBeNull();
    } finally {
      await t.close();
    }
  });

  it("generateToken, storeToken hashed and custom-hasher: the identifier is the stored form", async () => {
    const hashed = await magicInstance("sqlite", { storeToken: "hashed", generateToken: (email) => `tok-${email.length}-abc` });
    const custom = await magicInstance("sqlite", { storeToken: { type: "custom-hasher", hash: (token) => `h:${token}` } });
    try {
      for (const [t, expected] of [
        [hashed, "42QH7s-Gjg14EbLoKBAIITJa_PA8vDPpnC2Lwg5cNS4"],
        [custom, null],
      ] as const) {
        const browser = client(t.auth);
        const mail = await requestLink(browser, t.outbox, { email: "store@example.com" });
        const identifier = expected ?? `h:${mail.token}`;
        const rows = await t.auth.$context.adapter.findMany<{ identifier: string }>({ model: "verification" });
        expect(rows.map((r) => r.identifier)).toEqual([identifier]);
        expect((await browser.get(`/magic-link/verify?token=${mail.token}`)).status).toBe(200);
        expect(await t.auth.$context.adapter.count({ model: "verification" })).toBe(0);
      }
      expect(hashed.outbox[0]!.token).toBe("tok-17-abc");
    } finally {
      await hashed.close();
      await custom.close();
    }
  });

  it("expiresIn sets the row's lifetime", async () => {
    const t = await magicInstance("sqlite", { expiresIn: 60 });
    try {
      const mail = await requestLink(client(t.auth), t.outbox, { email: "short@example.com" });
      const row = await t.auth.$context.internalAdapter.findVerificationValue(mail.token);
      expect(row!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(60_000);
      expect(row!.expiresAt.getTime() - Date.now()).toBeGreaterThan(55_000);
    } finally {
      await t.close();
    }
  });

  it("validateUserInfo sees source magic-link; a refusal redirects with its code and description", async () => {
    const seen: unknown[] = [];
    const t = await magicInstance(
      "sqlite",
      {},
      {
        user: {
          validateUserInfo: ({ user, source }) => {
            seen.push(source);
            if (String(user.email).endsWith("@blocked.test")) return { error: "blocked_domain", errorDescription: "Domain blocked" };
          },
        },
      },
    );
    try {
      const browser = client(t.auth);
      const ok = await requestLink(browser, t.outbox, { email: "fine@example.com" });
      expect((await browser.get(`/magic-link/verify?token=${ok.token}`)).status).toBe(200);
      expect(seen).toEqual([{ method: "magic-link", action: "create-user" }]);
      const bad = await requestLink(browser, t.outbox, { email: "x@blocked.test", callbackURL: "/in" });
      const refused = await browser.get(linkPath(bad.url));
      expect(refused.headers.get("location")).toBe("http://localhost:3000/in?error=blocked_domain&error_description=Domain+blocked");
      expect(await t.auth.$context.internalAdapter.findUserByEmail("x@blocked.test")).toBeNull();
    } finally {
      await t.close();
    }
  });

  it("misconfiguration is a TypeError", async () => {
    const { magicLink } = await import("../src/index.ts");
    expect(() => magicLink({} as never)).toThrow(TypeError);
    expect(() => magicLink({ sendMagicLink: () => {}, expiresIn: -1 })).toThrow(TypeError);
    expect(() => magicLink({ sendMagicLink: () => {}, storeToken: "encrypted" as never })).toThrow(TypeError);
  });
});
