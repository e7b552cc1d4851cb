import { createHash } from "node:crypto";
import { symmetricDecrypt, TEST_SECRET } from "./secret.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, codeFor, otpInstance, PASSWORD, rows, signUp, wrong, type OTPInstance } from "./instance.ts";

describe("verification, check, password reset (SQLite)", () => {
  let t: OTPInstance;
  beforeAll(async () => {
    t = await otpInstance("sqlite", {}, { emailAndPassword: { enabled: true, revokeSessionsOnPasswordReset: true } });
  });
  afterAll(() => t.close());

  it("no email-verification code for an unknown address (same answer), one for a user", async () => {
    const browser = client(t.auth);
    const before = t.outbox.length;
    expect((await browser.post("/email-otp/send-verification-otp", { email: "nobody@example.com", type: "email-verification" })).json).toEqual({ success: true });
    expect(t.outbox.length).toBe(before);
    expect((await rows(t)).some((r) => r.identifier.includes("nobody@"))).toBe(false);
  });

  it("check-verification-otp does not use the code up; wrong checks cost attempts", async () => {
    const browser = client(t.auth);
    await signUp(browser, "check@example.com");
    const otp = await codeFor(browser, t, "check@example.com", "email-verification");
    const bad = await browser.post("/email-otp/check-verification-otp", { email: "check@example.com", type: "email-verification", otp: wrong(otp) });
    expect(bad.json).toEqual({ code: "INVALID_OTP", message: "Invalid OTP" });
    const good = await browser.post("/email-otp/check-verification-otp", { email: "check@example.com", type: "email-verification", otp });
    expect(good.json).toEqual({ success: true });
    expect((await rows(t)).find((r) => r.identifier === "email-verification-otp-check@example.com")!.value).toBe(`${otp}:1`);
    const verified = await browser.post<{ status: boolean; token: null; user: { emailVerified: boolean } }>("/email-otp/verify-email", {
      email: "check@example.com",
      otp,
    });
    expect(verified.json).toMatchObject({ status: true, token: null, user: { email: "check@example.com", emailVerified: true } });
  });

  it("check with a right code for an address without a user: 400 USER_NOT_FOUND; a bad email: INVALID_EMAIL", async () => {
    const browser = client(t.auth);
    const otp = await codeFor(browser, t, "nouser@example.com", "sign-in");
    const answer = await browser.post("/email-otp/check-verification-otp", { email: "nouser@example.com", type: "sign-in", otp });
    expect(answer.json).toEqual({ code: "USER_NOT_FOUND", message: "User not found" });
    const bad = await browser.post("/email-otp/check-verification-otp", { email: "nope", type: "sign-in", otp });
    expect(bad.json).toEqual({ code: "INVALID_EMAIL", message: "Invalid email" });
    const change = await browser.post("/email-otp/send-verification-otp", { email: "a@example.com", type: "change-email" });
    expect(change.status).toBe(400);
    expect(change.json).toMatchObject({ message: "Invalid OTP type" });
  });

  it("password reset: code by either request route, new password set, sessions revoked, email verified", async () => {
    const owner = client(t.auth);
    const userId = await signUp(owner, "reset@example.com");
    for (const path of ["/email-otp/request-password-reset", "/forget-password/email-otp"]) {
      expect((await owner.post(path, { email: "reset@example.com" })).json).toEqual({ success: true });
      expect(t.outbox.at(-1)).toMatchObject({ email: "reset@example.com", type: "forget-password" });
    }
    const otp = t.outbox.at(-1)!.otp;
    const short = await owner.post("/email-otp/reset-password", { email: "reset@example.com", otp, password: "short" });
    expect(short.json).toEqual({ code: "PASSWORD_TOO_SHORT", message: "Password too short" });
    const done = await owner.post("/email-otp/reset-password", { email: "reset@example.com", otp, password: "brand-new-password" });
    expect(done.json).toEqual({ success: true });
    expect((await owner.get("/get-session")).json).toBeNull();
    const old = await client(t.auth).post("/sign-in/email", { email: "reset@example.com", password: PASSWORD });
    expect(old.status).toBe(401);
    const fresh = await client(t.auth).post("/sign-in/email", { email: "reset@example.com", password: "brand-new-password" });
    expect(fresh.status).toBe(200);
    expect((await t.auth.$context.internalAdapter.findUserById(userId))?.emailVerified).toBe(true);
  });

  it("password reset for a user without a password creates the credential account", async () => {
    const browser = client(t.auth);
    const otp = await codeFor(browser, t, "otponly@example.com", "sign-in");
    const signed = await browser.post<{ user: { id: string } }>("/sign-in/email-otp", { email: "otponly@example.com", otp });
    await browser.post("/email-otp/request-password-reset", { email: "otponly@example.com" });
    const code = t.outbox.at(-1)!.otp;
    expect((await browser.post("/email-otp/reset-password", { email: "otponly@example.com", otp: code, password: "first-password-1" })).status).toBe(200);
    const accounts = await t.auth.$context.internalAdapter.findAccounts(signed.json!.user.id);
    expect(accounts).toMatchObject([{ providerId: "credential", accountId: signed.json!.user.id }]);
  });
});

describe("storeOTP forms, as the reference writes them", () => {
  it("hashed: SHA-256 base64url; encrypted: decrypts with the secret; custom hash and encrypt/decrypt", async () => {
    const forms = [
      ["hashed", (otp: string, stored: string) => expect(stored).toBe(createHash("sha256").update(otp).digest("base64url"))],
      ["encrypted", async (otp: string, stored: string) => expect(await symmetricDecrypt(TEST_SECRET, stored)).toBe(otp)],
      [{ hash: async (otp: string) => `h-${otp}` }, (otp: string, stored: string) => expect(stored).toBe(`h-${otp}`)],
      [
        { encrypt: async (otp: string) => `e-${otp}`, decrypt: async (stored: string) => stored.slice(2) },
        (otp: string, stored: string) => expect(stored).toBe(`e-${otp}`),
      ],
    ] as const;
    for (const [storeOTP, check] of forms) {
      const t = await otpInstance("sqlite", { storeOTP });
      try {
        const browser = client(t.auth);
        const otp = await codeFor(browser, t, "store@example.com", "sign-in");
        const value = (await rows(t))[0]!.value;
        expect(value.endsWith(":0")).toBe(true);
        await check(otp, value.slice(0, -2));
        const got = t.auth.api.getVerificationOTP!({ query: { email: "store@example.com", type: "sign-in" } });
        if (storeOTP === "hashed" || (typeof storeOTP === "object" && "hash" in storeOTP)) await expect(got).rejects.toThrow(/hashed/);
        else expect(await got).toEqual({ otp });
        expect((await browser.post("/sign-in/email-otp", { email: "store@example.com", otp: wrong(otp) })).status).toBe(400);
        expect((await browser.post("/sign-in/email-otp", { email: "store@example.com", otp })).status).toBe(200);
      } finally {
        await t.close();
      }
    }
  });

  it("createVerificationOTP and getVerificationOTP are server-only: no HTTP route", async () => {
    const t = await otpInstance("sqlite");
    try {
      const browser = client(t.auth);
      expect((await browser.post("/email-otp/create-verification-otp", { email: "a@example.com", type: "sign-in" })).status).toBe(404);
      expect((await browser.get("/email-otp/get-verification-otp?email=a%40example.com&type=sign-in")).status).toBe(404);
      expect(await rows(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("resendStrategy reuse: the live code is mailed again with a new expiry", async () => {
    const t = await otpInstance("sqlite", { resendStrategy: "reuse", storeOTP: "encrypted" });
    try {
      const browser = client(t.auth);
      const first = await codeFor(browser, t, "reuse@example.com", "sign-in");
      expect(await codeFor(browser, t, "reuse@example.com", "sign-in")).toBe(first);
      expect(await rows(t)).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describe("change email", () => {
  it("disabled by default; enabled: code to the new address, then moved and verified", async () => {
    const off = await otpInstance("sqlite");
    const on = await otpInstance("sqlite", { changeEmail: { enabled: true } });
    try {
      const a = client(off.auth);
      await signUp(a, "old@example.com");
      const refused = await a.post("/email-otp/request-email-change", { newEmail: "new@example.com" });
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject({ message: "Change email with OTP is disabled" });

      const b = client(on.auth);
      await signUp(b, "old@example.com");
      expect((await b.post("/email-otp/request-email-change", { newEmail: "old@example.com" })).json).toMatchObject({ message: "Email is the same" });
      expect((await b.post("/email-otp/request-email-change", { newEmail: "New@Example.com" })).json).toEqual({ success: true });
      const mail = on.outbox.at(-1)!;
      expect(mail).toMatchObject({ email: "new@example.com", type: "change-email" });
      expect((await rows(on)).map((r) => r.identifier)).toContain("change-email-otp-old@example.com-new@example.com");
      expect((await b.post("/email-otp/change-email", { newEmail: "new@example.com", otp: wrong(mail.otp) })).status).toBe(400);
      expect((await b.post("/email-otp/change-email", { newEmail: "new@example.com", otp: mail.otp })).json).toEqual({ success: true });
      const session = await b.get<{ user: { email: string; emailVerified: boolean } }>("/get-session");
      expect(session.json?.user).toMatchObject({ email: "new@example.com", emailVerified: true });
      expect((await client(on.auth).post("/email-otp/change-email", { newEmail: "x@example.com", otp: "1" })).status).toBe(401);
    } finally {
      await off.close();
      await on.close();
    }
  });

  it("verifyCurrentEmail asks for a code of the current address first", async () => {
    const t = await otpInstance("sqlite", { changeEmail: { enabled: true, verifyCurrentEmail: true } });
    try {
      const b = client(t.auth);
      await signUp(b, "cur@example.com");
      expect((await b.post("/email-otp/request-email-change", { newEmail: "next@example.com" })).json).toMatchObject({
        message: "OTP is required to verify current email",
      });
      const otp = await codeFor(b, t, "cur@example.com", "email-verification");
      expect((await b.post("/email-otp/request-email-change", { newEmail: "next@example.com", otp })).json).toEqual({ success: true });
      expect(t.outbox.at(-1)).toMatchObject({ email: "next@example.com", type: "change-email" });
    } finally {
      await t.close();
    }
  });
});

describe("email verification hooks into sign-up", () => {
  it("sendVerificationOnSignUp mails an email-verification code after sign-up", async () => {
    const t = await otpInstance("sqlite", { sendVerificationOnSignUp: true });
    try {
      await signUp(client(t.auth), "hook@example.com");
      expect(t.outbox.at(-1)).toMatchObject({ email: "hook@example.com", type: "email-verification" });
      const otp = t.outbox.at(-1)!.otp;
      expect((await client(t.auth).post("/email-otp/verify-email", { email: "hook@example.com", otp })).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("overrideDefaultEmailVerification: core's verification mail becomes a code; autoSignIn opens a session", async () => {
    const t = await otpInstance(
      "sqlite",
      { overrideDefaultEmailVerification: true, sendVerificationOnSignUp: true },
      { emailVerification: { sendOnSignUp: true, autoSignInAfterVerification: true } },
    );
    try {
      await signUp(client(t.auth), "override@example.com");
      expect(t.outbox.filter((m) => m.email === "override@example.com")).toHaveLength(1);
      const otp = t.outbox.at(-1)!.otp;
      const browser = client(t.auth);
      const verified = await browser.post<{ token: string | null }>("/email-otp/verify-email", { email: "override@example.com", otp });
      expect(verified.json!.token).toMatch(/^[A-Za-z0-9]{32}$/);
      expect((await browser.get<{ user: { emailVerified: boolean } }>("/get-session")).json?.user.emailVerified).toBe(true);
    } finally {
      await t.close();
    }
  });
});
