import { describe, expect, it, vi } from "vitest";
import { APIError, type LatchkeyOptions, type User } from "../src/index.ts";
import { createOutbox, linkPath } from "./support/outbox.ts";
import { BASE, cookiePair, findCookie, testInstance } from "./support/instance.ts";

const ada = { name: "Ada", email: "ada@example.com", password: "correct horse battery" };
const SESSION = "better-auth.session_token";
const EXPIRED = "better-auth.session_token=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax";

type DeleteUserOptions = NonNullable<NonNullable<LatchkeyOptions["user"]>["deleteUser"]>;

/** Ada signed up and signed in, deletion configured as given. */
async function setup(
  deleteUser: DeleteUserOptions = { enabled: true },
  extra: Partial<LatchkeyOptions> = {},
) {
  const t = testInstance({ logger: { disabled: true }, user: { deleteUser }, ...extra });
  const signUp = await t.post("/sign-up/email", ada);
  const cookie = cookiePair(findCookie(signUp, SESSION)!);
  const userId = (await signUp.json()).user.id as string;
  const remove = (body: Record<string, unknown> = {}, headers: Record<string, string> = { cookie }) =>
    t.post("/delete-user", body, headers);
  /** Makes Ada's session older than the default freshAge (one day). */
  const age = () => {
    t.store.session![0]!.createdAt = new Date(Date.now() - 86_400_000 - 1000);
  };
  const gone = () => t.count("user") === 0 && t.count("session") === 0 && t.count("account") === 0;
  return { ...t, cookie, userId, remove, age, gone };
}

describe("POST /delete-user", () => {
  it("answers 404 with no body when the feature is off, 401 without a session", async () => {
    const t = await setup({});
    const off = await t.remove();
    expect(off.status).toBe(404);
    expect(await off.text()).toBe("");
    const on = await setup();
    expect((await on.remove({}, {})).status).toBe(401);
  });

  it("deletes the user, sessions and accounts on a fresh session, clears the cookies and runs the hooks", async () => {
    const beforeDelete = vi.fn(async (_user: User) => {});
    const afterDelete = vi.fn(async (_user: User) => {});
    const t = await setup({ enabled: true, beforeDelete, afterDelete });
    const res = await t.remove();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, message: "User deleted" });
    expect(res.headers.getSetCookie()).toContain(EXPIRED);
    expect(t.gone()).toBe(true);
    expect(beforeDelete.mock.calls[0]![0]).toMatchObject({ id: t.userId });
    expect(afterDelete.mock.calls[0]![0]).toMatchObject({ id: t.userId });
  });

  it("on a stale session needs the password (400 SESSION_EXPIRED without it)", async () => {
    const t = await setup();
    t.age();
    const stale = await t.remove();
    expect(stale.status).toBe(400);
    expect(await stale.json()).toEqual({
      code: "SESSION_EXPIRED",
      message: "Session expired. Re-authenticate to perform this action.",
    });
    const wrong = await t.remove({ password: "not the password" });
    expect(await wrong.json()).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
    expect(t.count("user")).toBe(1);
    expect((await t.remove({ password: ada.password })).status).toBe(200);
    expect(t.gone()).toBe(true);
  });

  it("refuses a password check for a user without a password, and freshAge 0 turns freshness off", async () => {
    const t = await setup({ enabled: true }, { session: { freshAge: 0 } });
    t.store.account!.length = 0;
    const res = await t.remove({ password: "anything at all" });
    expect(await res.json()).toMatchObject({ code: "CREDENTIAL_ACCOUNT_NOT_FOUND" });
    t.age();
    expect((await t.remove()).status).toBe(200);
  });

  it("lets beforeDelete refuse with an APIError", async () => {
    const beforeDelete = async () => {
      throw new APIError("BAD_REQUEST", {
        message: "Close your subscription first",
        code: "HAS_SUBSCRIPTION",
      });
    };
    const t = await setup({ enabled: true, beforeDelete });
    const res = await t.remove();
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "HAS_SUBSCRIPTION" });
    expect(t.count("user")).toBe(1);
  });
});

describe("delete-user with a mailed confirmation", () => {
  async function mailed(extra: Partial<DeleteUserOptions> = {}) {
    const outbox = createOutbox();
    const t = await setup({
      enabled: true,
      sendDeleteAccountVerification: outbox.sendDeleteAccountVerification,
      ...extra,
    });
    return { ...t, outbox };
  }

  it("stores delete-account-<token> → user id for a day and mails the link instead of deleting", async () => {
    const t = await mailed();
    t.age(); // the mailed link is the proof; a stale session may ask for it
    const res = await t.remove({ callbackURL: "/bye" });
    expect(await res.json()).toEqual({ success: true, message: "Verification email sent" });
    const mail = t.outbox.last("delete");
    expect(mail.token).toMatch(/^[0-9a-z]{32}$/);
    expect(mail.url).toBe(`${BASE}/api/auth/delete-user/callback?token=${mail.token}&callbackURL=%2Fbye`);
    const row = t.store.verification![0]!;
    expect(row).toMatchObject({ identifier: `delete-account-${mail.token}`, value: t.userId });
    expect((row.expiresAt as Date).getTime()).toBeGreaterThan(Date.now() + 86_400_000 - 5000);
    expect(t.count("user")).toBe(1);

    const done = await t.request(linkPath(mail.url), { headers: { cookie: t.cookie } });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/bye");
    expect(done.headers.getSetCookie()).toContain(EXPIRED);
    expect(t.gone()).toBe(true);
    expect(t.count("verification")).toBe(0);
  });

  it("the callback needs the owner's session and a live token, and answers JSON without a callbackURL", async () => {
    const t = await mailed({ deleteTokenExpiresIn: 60 });
    await t.remove();
    const { token } = t.outbox.last("delete");
    const noSession = await t.request(`/delete-user/callback?token=${token}`);
    expect(noSession.status).toBe(404);
    expect(await noSession.json()).toEqual({
      code: "FAILED_TO_GET_USER_INFO",
      message: "Failed to get user info",
    });
    const bad = await t.request("/delete-user/callback?token=wrong", { headers: { cookie: t.cookie } });
    expect(bad.status).toBe(404);
    expect(await bad.json()).toEqual({ code: "INVALID_TOKEN", message: "Invalid token" });
    expect((t.store.verification![0]!.expiresAt as Date).getTime()).toBeLessThan(Date.now() + 61_000);
    const ok = await t.request(`/delete-user/callback?token=${token}`, { headers: { cookie: t.cookie } });
    expect(await ok.json()).toEqual({ success: true, message: "User deleted" });
    expect(t.gone()).toBe(true);
  });

  it("another user's session cannot redeem the link (and, as in the reference, spends it)", async () => {
    const t = await mailed();
    await t.remove();
    const { token } = t.outbox.last("delete");
    const bob = await t.post("/sign-up/email", { ...ada, name: "Bob", email: "bob@example.com" });
    const bobCookie = cookiePair(findCookie(bob, SESSION)!);
    const res = await t.request(`/delete-user/callback?token=${token}`, { headers: { cookie: bobCookie } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "INVALID_TOKEN" });
    expect(t.count("user")).toBe(2);
    expect(t.count("verification")).toBe(0);
  });

  it("the token also works in the POST body, once", async () => {
    const t = await mailed();
    await t.remove();
    const { token } = t.outbox.last("delete");
    expect(await (await t.remove({ token })).json()).toEqual({ success: true, message: "User deleted" });
    expect(t.gone()).toBe(true);
  });

  it("the callback is 404 NOT_FOUND when the feature is off, and checks the callbackURL with origin checks on", async () => {
    const off = testInstance();
    const res = await off.request("/delete-user/callback?token=x");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: "Not found", code: "NOT_FOUND" });
    const strict = testInstance({
      advanced: { disableOriginCheck: false },
      user: { deleteUser: { enabled: true } },
    });
    const evil = await strict.request(
      `/delete-user/callback?token=x&callbackURL=${encodeURIComponent("https://evil.example")}`,
    );
    expect(evil.status).toBe(403);
    expect(await evil.json()).toMatchObject({ code: "INVALID_CALLBACK_URL" });
  });
});
