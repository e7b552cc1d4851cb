import { describe, expect, it, vi } from "vitest";
import type { LatchkeyOptions, User } from "../src/index.ts";
import { createOutbox, linkPath } from "./support/outbox.ts";
import { BASE, cookiePair, findCookie, testInstance } from "./support/instance.ts";

const ada = { name: "Ada", email: "ada@example.com", password: "correct horse battery" };
const SESSION = "better-auth.session_token";
const REQUESTED = {
  status: true,
  message: "If this email exists in our system, check your email for the reset link",
};

/** An instance with Ada signed up and reset mails in an outbox. */
async function setup(emailAndPassword: Partial<NonNullable<LatchkeyOptions["emailAndPassword"]>> = {}) {
  const outbox = createOutbox();
  const t = testInstance({
    emailAndPassword: { enabled: true, sendResetPassword: outbox.sendResetPassword, ...emailAndPassword },
  });
  const signUp = await t.post("/sign-up/email", ada);
  const cookie = cookiePair(findCookie(signUp, SESSION)!);
  const userId = (await signUp.json()).user.id as string;
  /** Requests a reset for Ada and returns the mailed token. */
  const requestToken = async (body: Record<string, unknown> = {}): Promise<string> => {
    const res = await t.post("/request-password-reset", { email: ada.email, ...body });
    expect(await res.json()).toEqual(REQUESTED);
    return outbox.last("reset").token;
  };
  const signIn = (password: string) => t.post("/sign-in/email", { email: ada.email, password });
  return { ...t, outbox, cookie, userId, requestToken, signIn };
}

describe("POST /request-password-reset", () => {
  it("is refused without sendResetPassword", async () => {
    const t = testInstance({ logger: { disabled: true } });
    const res = await t.post("/request-password-reset", { email: ada.email });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: "RESET_PASSWORD_DISABLED",
      message: "Reset password isn't enabled",
    });
  });

  it("stores reset-password:<token> → user id for an hour and mails the reference's link", async () => {
    const t = await setup();
    const before = Date.now();
    const token = await t.requestToken({ redirectTo: "/reset?step=2" });
    expect(token).toMatch(/^[A-Za-z0-9]{24}$/);
    const mail = t.outbox.last("reset");
    expect(mail.to).toBe(ada.email);
    expect(mail.url).toBe(`${BASE}/api/auth/reset-password/${token}?callbackURL=%2Freset%3Fstep%3D2`);
    const row = t.store.verification!.find((r) => r.identifier === `reset-password:${token}`)!;
    expect(row.value).toBe(t.userId);
    const expires = (row.expiresAt as Date).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(expires).toBeLessThan(Date.now() + 3_600_000 + 1000);
  });

  it("leaves callbackURL empty without redirectTo, and honours resetPasswordTokenExpiresIn", async () => {
    const t = await setup({ resetPasswordTokenExpiresIn: 60 });
    const token = await t.requestToken();
    expect(t.outbox.last("reset").url).toBe(`${BASE}/api/auth/reset-password/${token}?callbackURL=`);
    const row = t.store.verification!.find((r) => r.identifier === `reset-password:${token}`)!;
    expect((row.expiresAt as Date).getTime()).toBeLessThan(Date.now() + 61_000);
  });

  it("validates the body", async () => {
    const t = await setup();
    const res = await t.post("/request-password-reset", { email: "nope" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: "VALIDATION_ERROR",
      message: "[body.email] Invalid email address",
    });
  });
});

describe("GET /reset-password/:token", () => {
  it("redirects to the callbackURL with the token, resolved against the base URL, without spending it", async () => {
    const t = await setup();
    const token = await t.requestToken({ redirectTo: "/reset" });
    const res = await t.request(linkPath(t.outbox.last("reset").url));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${BASE}/reset?token=${token}`);
    const absolute = await t.request(
      `/reset-password/${token}?callbackURL=${encodeURIComponent(`${BASE}/r?a=1`)}`,
    );
    expect(absolute.headers.get("location")).toBe(`${BASE}/r?a=1&token=${token}`);
    expect(t.count("verification")).toBe(1);
  });

  it("redirects with ?error=INVALID_TOKEN for an unknown or expired token, to the error page without a callbackURL", async () => {
    const t = await setup();
    const bad = await t.request("/reset-password/nope?callbackURL=/reset");
    expect(bad.status).toBe(302);
    expect(bad.headers.get("location")).toBe(`${BASE}/reset?error=INVALID_TOKEN`);
    const token = await t.requestToken();
    t.store.verification![0]!.expiresAt = new Date(Date.now() - 1000);
    const expired = await t.request(`/reset-password/${token}?callbackURL=/reset`);
    expect(expired.headers.get("location")).toBe(`${BASE}/reset?error=INVALID_TOKEN`);
    const empty = await t.request(`/reset-password/${token}?callbackURL=`);
    expect(empty.headers.get("location")).toBe(`${BASE}/api/auth/error?error=INVALID_TOKEN`);
    const missing = await t.request(`/reset-password/${token}`);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: "VALIDATION_ERROR" });
  });

  it("refuses an untrusted callbackURL when origin checks are on", async () => {
    const t = testInstance({ advanced: { disableOriginCheck: false } });
    const res = await t.request(
      `/reset-password/x?callbackURL=${encodeURIComponent("https://evil.example/")}`,
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: "INVALID_CALLBACK_URL" });
  });
});

describe("POST /reset-password", () => {
  it("sets the new password (token in the body), keeps sessions by default and calls onPasswordReset", async () => {
    const onPasswordReset = vi.fn(async (_data: { user: User }) => {});
    const t = await setup({ onPasswordReset });
    const token = await t.requestToken();
    const res = await t.post("/reset-password", { newPassword: "a brand new password", token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: true });
    expect((await t.signIn(ada.password)).status).toBe(401);
    expect((await t.signIn("a brand new password")).status).toBe(200);
    expect(onPasswordReset).toHaveBeenCalledTimes(1);
    expect(onPasswordReset.mock.calls[0]![0]).toMatchObject({ user: { id: t.userId, email: ada.email } });
    expect(await (await t.request("/get-session", { headers: { cookie: t.cookie } })).json()).not.toBeNull();
    expect(t.count("verification")).toBe(0);
  });

  it("takes the token from the query, and revokes every session with revokeSessionsOnPasswordReset", async () => {
    const t = await setup({ revokeSessionsOnPasswordReset: true });
    const token = await t.requestToken();
    const res = await t.post(`/reset-password?token=${token}`, { newPassword: "a brand new password" });
    expect(res.status).toBe(200);
    expect(t.count("session")).toBe(0);
    expect(await (await t.request("/get-session", { headers: { cookie: t.cookie } })).json()).toBeNull();
  });

  it("checks the password rules before spending the token", async () => {
    const t = await setup();
    const token = await t.requestToken();
    const short = await t.post("/reset-password", { newPassword: "short", token });
    expect(short.status).toBe(400);
    expect(await short.json()).toEqual({ code: "PASSWORD_TOO_SHORT", message: "Password too short" });
    const long = await t.post("/reset-password", { newPassword: "x".repeat(129), token });
    expect(await long.json()).toMatchObject({ code: "PASSWORD_TOO_LONG" });
    expect((await t.post("/reset-password", { newPassword: "long enough now", token })).status).toBe(200);
  });

  it("answers 400 INVALID_TOKEN without a token or with an unknown one", async () => {
    const t = await setup();
    for (const body of [
      { newPassword: "long enough now" },
      { newPassword: "long enough now", token: "unknown" },
    ]) {
      const res = await t.post("/reset-password", body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ code: "INVALID_TOKEN", message: "Invalid token" });
    }
  });

  it("creates a credential account for a user without one", async () => {
    const t = await setup();
    const token = await t.requestToken();
    t.store.account!.length = 0;
    expect((await t.post("/reset-password", { newPassword: "a brand new password", token })).status).toBe(
      200,
    );
    expect(t.store.account).toHaveLength(1);
    expect(t.store.account![0]).toMatchObject({
      providerId: "credential",
      accountId: t.userId,
      userId: t.userId,
    });
    expect((await t.signIn("a brand new password")).status).toBe(200);
  });

  it("answers 400 USER_NOT_FOUND when the user is gone", async () => {
    const t = await setup();
    const token = await t.requestToken();
    t.store.user!.length = 0;
    const res = await t.post("/reset-password", { newPassword: "a brand new password", token });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "USER_NOT_FOUND" });
  });

  it("does not fail the request when the sender throws", async () => {
    const t = testInstance({
      logger: { disabled: true },
      emailAndPassword: { enabled: true, sendResetPassword: () => Promise.reject(new Error("smtp down")) },
    });
    await t.post("/sign-up/email", ada);
    const res = await t.post("/request-password-reset", { email: ada.email });
    expect(await res.json()).toEqual(REQUESTED);
  });
});
