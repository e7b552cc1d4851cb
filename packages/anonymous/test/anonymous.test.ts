import { rowCounts, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LinkAccountData } from "../src/index.ts";
import { anonymousInstance, client, PASSWORD, PLACEHOLDER, signInAnonymously, signUp } from "./instance.ts";

const instances: TestAuth[] = [];
afterAll(() => Promise.all(instances.map((t) => t.close())));
/** An instance on a fresh SQLite file, closed after the file's tests. */
async function make(options: Parameters<typeof anonymousInstance>[1] = {}): Promise<TestAuth> {
  const t = await anonymousInstance("sqlite", options);
  instances.push(t);
  return t;
}

describe("POST /sign-in/anonymous", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await anonymousInstance("sqlite");
  });
  afterAll(() => t.close());

  it("creates an anonymous user with a placeholder address and opens a session", async () => {
    const browser = client(t.auth);
    const { token, user } = await signInAnonymously(browser);
    expect(user).toMatchObject({ name: "Anonymous", emailVerified: false, isAnonymous: true });
    expect(user.email).toMatch(PLACEHOLDER);
    const session = await browser.get<{ session: { token: string }; user: { isAnonymous: boolean } }>(
      "/get-session",
    );
    expect(session.json).toMatchObject({ session: { token }, user: { id: user.id, isAnonymous: true } });
  });

  it("refuses a second anonymous sign-in from an anonymous session and writes nothing", async () => {
    const browser = client(t.auth);
    await signInAnonymously(browser);
    const before = await rowCounts(t.auth);
    const again = await browser.post("/sign-in/anonymous");
    expect(again.status).toBe(400);
    expect(again.json).toEqual({
      code: "ANONYMOUS_USERS_CANNOT_SIGN_IN_AGAIN_ANONYMOUSLY",
      message: "Anonymous users cannot sign in again anonymously",
    });
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(await rowCounts(t.auth)).toEqual(before);
  });

  it("a signed-in real user may start an anonymous session (nothing is linked or deleted)", async () => {
    const browser = client(t.auth);
    const realId = await signUp(browser, "real-first@example.com");
    const { user } = await signInAnonymously(browser);
    expect(user.id).not.toBe(realId);
    expect(await t.auth.$context.internalAdapter.findUserById(realId)).not.toBeNull();
  });

  it("the isAnonymous column cannot be set by a client: a sign-up asking for it stores the default", async () => {
    const browser = client(t.auth);
    const answer = await browser.post<{ user: { isAnonymous: boolean } }>("/sign-up/email", {
      email: "sneaky@example.com",
      password: PASSWORD,
      name: "Sneaky",
      isAnonymous: true,
    });
    expect(answer.status).toBe(200);
    expect(answer.json?.user.isAnonymous).toBe(false);
  });
});

describe("generated addresses and names", () => {

  it("emailDomainName gives temp-<id>@<domain>; generateName names the user", async () => {
    const t = await make({ emailDomainName: "guests.example.com", generateName: () => "Guest" });
    const { user } = await signInAnonymously(client(t.auth));
    expect(user.email).toMatch(/^temp-[a-z0-9]{32}@guests\.example\.com$/);
    expect(user.name).toBe("Guest");
  });

  it("generateRandomEmail wins; an invalid one is 400 INVALID_EMAIL_FORMAT with nothing written", async () => {
    let n = 0;
    const good = await make({ generateRandomEmail: () => `guest-${++n}@example.com` });
    expect((await signInAnonymously(client(good.auth))).user.email).toBe("guest-1@example.com");

    const bad = await make({ generateRandomEmail: () => "not an email" });
    const before = await rowCounts(bad.auth);
    const answer = await client(bad.auth).post("/sign-in/anonymous");
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({
      code: "INVALID_EMAIL_FORMAT",
      message: "Email was not generated in a valid format",
    });
    expect(await rowCounts(bad.auth)).toEqual(before);
  });

  it("an empty generated name falls back to Anonymous", async () => {
    const t = await make({ generateName: () => "" });
    expect((await signInAnonymously(client(t.auth))).user.name).toBe("Anonymous");
  });
});

describe("linking: an anonymous browser signs in or up another way", () => {

  it("sign-up: onLinkAccount sees both users, then the anonymous user, sessions and all, is gone", async () => {
    const links: LinkAccountData[] = [];
    const t = await make({ onLinkAccount: (data) => void links.push(data) });
    const browser = client(t.auth);
    const anon = await signInAnonymously(browser);
    const realId = await signUp(browser, "linked@example.com");
    expect(links).toHaveLength(1);
    expect(links[0]?.anonymousUser).toMatchObject({
      user: { id: anon.user.id },
      session: { token: anon.token },
    });
    expect(links[0]?.newUser.user).toMatchObject({ id: realId, email: "linked@example.com" });
    expect(await t.auth.$context.internalAdapter.findUserById(anon.user.id)).toBeNull();
    expect(await t.auth.$context.internalAdapter.findSession(anon.token)).toBeNull();
    expect((await browser.get<{ user: { id: string } }>("/get-session")).json?.user.id).toBe(realId);
  });

  it("sign-in of an existing account links the same way", async () => {
    const links: LinkAccountData[] = [];
    const t = await make({ onLinkAccount: (data) => void links.push(data) });
    const realId = await signUp(client(t.auth), "existing@example.com");
    const browser = client(t.auth);
    const anon = await signInAnonymously(browser);
    const answer = await browser.post("/sign-in/email", {
      email: "existing@example.com",
      password: PASSWORD,
    });
    expect(answer.status).toBe(200);
    expect(links.map((l) => [l.anonymousUser.user.id, l.newUser.user.id])).toEqual([[anon.user.id, realId]]);
    expect(await t.auth.$context.internalAdapter.findUserById(anon.user.id)).toBeNull();
  });

  it("a failed sign-in links nothing and deletes nothing", async () => {
    const links: LinkAccountData[] = [];
    const t = await make({ onLinkAccount: (data) => void links.push(data) });
    await signUp(client(t.auth), "kept@example.com");
    const browser = client(t.auth);
    const anon = await signInAnonymously(browser);
    const answer = await browser.post("/sign-in/email", {
      email: "kept@example.com",
      password: "wrong password",
    });
    expect(answer.status).toBe(401);
    expect(links).toEqual([]);
    expect(await t.auth.$context.internalAdapter.findUserById(anon.user.id)).not.toBeNull();
  });

  it("disableDeleteAnonymousUser keeps the anonymous user after linking", async () => {
    let linked = 0;
    const t = await make({ disableDeleteAnonymousUser: true, onLinkAccount: () => void linked++ });
    const browser = client(t.auth);
    const anon = await signInAnonymously(browser);
    await signUp(browser, "keeper@example.com");
    expect(linked).toBe(1);
    expect(await t.auth.$context.internalAdapter.findUserById(anon.user.id)).not.toBeNull();
  });

  it("an onLinkAccount that throws fails the sign-in's answer and keeps the anonymous user", async () => {
    const t = await make({
      onLinkAccount: () => {
        throw new Error("cart service down");
      },
    });
    const browser = client(t.auth);
    const anon = await signInAnonymously(browser);
    const answer = await browser.post("/sign-up/email", {
      email: "boom@example.com",
      password: PASSWORD,
      name: "Boom",
    });
    expect(answer.status).toBe(500);
    expect(answer.text).not.toContain("cart service down");
    expect(await t.auth.$context.internalAdapter.findUserById(anon.user.id)).not.toBeNull();
  });

  it("two parallel sign-ups from one anonymous browser both succeed; the anonymous user is deleted", async () => {
    const t = await make();
    const browser = client(t.auth);
    const anon = await signInAnonymously(browser);
    const cookie = browser.jar.header()!;
    const answers = await Promise.all(
      ["p1@example.com", "p2@example.com"].map((email) =>
        t.auth.handler(
          new Request("http://localhost:3000/api/auth/sign-up/email", {
            method: "POST",
            headers: { "content-type": "application/json", cookie },
            body: JSON.stringify({ email, password: PASSWORD, name: "P" }),
          }),
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(await t.auth.$context.internalAdapter.findUserById(anon.user.id)).toBeNull();
  });
});

describe("POST /delete-anonymous-user", () => {

  it("deletes the anonymous user and clears the session cookie", async () => {
    const t = await make();
    const browser = client(t.auth);
    const anon = await signInAnonymously(browser);
    const answer = await browser.post("/delete-anonymous-user");
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ success: true });
    expect(
      answer.headers.getSetCookie().some((line) => /^better-auth\.session_token=;.*Max-Age=0/.test(line)),
    ).toBe(true);
    expect(await t.auth.$context.internalAdapter.findUserById(anon.user.id)).toBeNull();
    expect((await browser.get("/get-session")).json).toBeNull();
  });

  it("403 USER_IS_NOT_ANONYMOUS for a real user; 401 without a session; nothing deleted", async () => {
    const t = await make();
    const browser = client(t.auth);
    await signUp(browser, "real@example.com");
    const before = await rowCounts(t.auth);
    const answer = await browser.post("/delete-anonymous-user");
    expect(answer.status).toBe(403);
    expect(answer.json).toEqual({ code: "USER_IS_NOT_ANONYMOUS", message: "User is not anonymous" });
    const anonymousCaller = await client(t.auth).post("/delete-anonymous-user");
    expect(anonymousCaller.status).toBe(401);
    expect(await rowCounts(t.auth)).toEqual(before);
  });

  it("400 DELETE_ANONYMOUS_USER_DISABLED with disableDeleteAnonymousUser", async () => {
    const t = await make({ disableDeleteAnonymousUser: true });
    const browser = client(t.auth);
    const anon = await signInAnonymously(browser);
    const answer = await browser.post("/delete-anonymous-user");
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({
      code: "DELETE_ANONYMOUS_USER_DISABLED",
      message: "Deleting anonymous users is disabled",
    });
    expect(await t.auth.$context.internalAdapter.findUserById(anon.user.id)).not.toBeNull();
  });
});
