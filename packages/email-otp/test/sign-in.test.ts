import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, codeFor, otpInstance, rows, signUp, wrong, type OTPInstance } from "./instance.ts";

describe("sign-in with an email code (SQLite)", () => {
  let t: OTPInstance;
  beforeAll(async () => {
    t = await otpInstance("sqlite");
  });
  afterAll(() => t.close());

  it("stores `sign-in-otp-<email>` → `<6 digits>:0` and mails the code", async () => {
    const browser = client(t.auth);
    const answer = await browser.post("/email-otp/send-verification-otp", { email: "New@Example.com", type: "sign-in" });
    expect(answer.json).toEqual({ success: true });
    const mail = t.outbox.at(-1)!;
    expect(mail).toMatchObject({ email: "new@example.com", type: "sign-in" });
    expect(mail.otp).toMatch(/^\d{6}$/);
    const stored = (await rows(t)).find((r) => r.identifier === "sign-in-otp-new@example.com")!;
    expect(stored.value).toBe(`${mail.otp}:0`);
    const lifetime = stored.expiresAt.getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(295_000);
    expect(lifetime).toBeLessThanOrEqual(300_000);
  });

  it("creates a new user (email verified, name, additional fields ignored unless configured) and signs in once", async () => {
    const browser = client(t.auth);
    const otp = await codeFor(browser, t, "fresh@example.com", "sign-in");
    const answer = await browser.post<{ token: string; user: Record<string, unknown> }>("/sign-in/email-otp", {
      email: "FRESH@example.com",
      otp,
      name: "Fresh",
    });
    expect(answer.status).toBe(200);
    expect(answer.json!.user).toMatchObject({ email: "fresh@example.com", name: "Fresh", emailVerified: true });
    expect((await browser.get<{ user: { email: string } }>("/get-session")).json?.user.email).toBe("fresh@example.com");
    const replay = await client(t.auth).post("/sign-in/email-otp", { email: "fresh@example.com", otp });
    expect(replay.status).toBe(400);
    expect(replay.json).toEqual({ code: "INVALID_OTP", message: "Invalid OTP" });
  });

  it("wrong codes count as `<code>:<n>`; the code still works before the limit; 403 after it", async () => {
    const browser = client(t.auth);
    const otp = await codeFor(browser, t, "count@example.com", "sign-in");
    for (const n of [1, 2]) {
      const refused = await browser.post("/sign-in/email-otp", { email: "count@example.com", otp: wrong(otp) });
      expect(refused.json).toEqual({ code: "INVALID_OTP", message: "Invalid OTP" });
      expect((await rows(t)).find((r) => r.identifier === "sign-in-otp-count@example.com")!.value).toBe(`${otp}:${n}`);
    }
    expect((await browser.post("/sign-in/email-otp", { email: "count@example.com", otp })).status).toBe(200);

    const again = await codeFor(browser, t, "count@example.com", "sign-in");
    for (let i = 0; i < 3; i++) await browser.post("/sign-in/email-otp", { email: "count@example.com", otp: wrong(again) });
    const blocked = await browser.post("/sign-in/email-otp", { email: "count@example.com", otp: again });
    expect(blocked.status).toBe(403);
    expect(blocked.json).toEqual({ code: "TOO_MANY_ATTEMPTS", message: "Too many attempts" });
    expect((await browser.post("/sign-in/email-otp", { email: "count@example.com", otp: again })).json).toMatchObject({ code: "INVALID_OTP" });
  });

  it("an expired code: 400 OTP_EXPIRED and the row is gone", async () => {
    const browser = client(t.auth);
    const otp = await codeFor(browser, t, "late@example.com", "sign-in");
    await t.auth.$context.adapter.updateMany({
      model: "verification",
      where: [{ field: "identifier", value: "sign-in-otp-late@example.com" }],
      update: { expiresAt: new Date(Date.now() - 1000) },
    });
    const answer = await browser.post("/sign-in/email-otp", { email: "late@example.com", otp });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ code: "OTP_EXPIRED", message: "OTP expired" });
    expect((await rows(t)).some((r) => r.identifier === "sign-in-otp-late@example.com")).toBe(false);
  });

  it("an unverified existing user: password, OAuth links and sessions revoked, then verified (spec: States)", async () => {
    const squatter = client(t.auth);
    const userId = await signUp(squatter, "victim@example.com");
    const ia = t.auth.$context.internalAdapter;
    await ia.linkAccount({ userId, providerId: "github", accountId: "gh-squat" });
    const owner = client(t.auth);
    const otp = await codeFor(owner, t, "victim@example.com", "sign-in");
    const answer = await owner.post<{ user: { id: string; emailVerified: boolean } }>("/sign-in/email-otp", { email: "victim@example.com", otp });
    expect(answer.json!.user).toMatchObject({ id: userId, emailVerified: true });
    expect(await ia.findAccounts(userId)).toEqual([]);
    expect((await squatter.get("/get-session")).json).toBeNull();
    expect((await owner.get<{ user: { id: string } }>("/get-session")).json?.user.id).toBe(userId);
  });

  it("a resend rotates the code: the older one no longer signs in", async () => {
    const browser = client(t.auth);
    const first = await codeFor(browser, t, "rotate@example.com", "sign-in");
    let second = await codeFor(browser, t, "rotate@example.com", "sign-in");
    while (second === first) second = await codeFor(browser, t, "rotate@example.com", "sign-in");
    expect((await browser.post("/sign-in/email-otp", { email: "rotate@example.com", otp: first })).status).toBe(400);
  });
});

describe("sign-in options", () => {
  it("disableSignUp: no code for an unknown address; a valid code for one is INVALID_OTP", async () => {
    const t = await otpInstance("sqlite", { disableSignUp: true });
    try {
      const browser = client(t.auth);
      expect((await browser.post("/email-otp/send-verification-otp", { email: "ghost@example.com", type: "sign-in" })).json).toEqual({ success: true });
      expect(t.outbox).toEqual([]);
      expect(await rows(t)).toEqual([]);
      const otp = (await t.auth.api.createVerificationOTP!({ body: { email: "ghost@example.com", type: "sign-in" } })) as string;
      const refused = await browser.post("/sign-in/email-otp", { email: "ghost@example.com", otp });
      expect(refused.json).toEqual({ code: "INVALID_OTP", message: "Invalid OTP" });
      expect(await t.auth.$context.internalAdapter.findUserByEmail("ghost@example.com")).toBeNull();
    } finally {
      await t.close();
    }
  });

  it("validateUserInfo sees source email-otp", async () => {
    const seen: unknown[] = [];
    const t = await otpInstance("sqlite", {}, { user: { validateUserInfo: ({ source }) => void seen.push(source) } });
    try {
      const browser = client(t.auth);
      const otp = await codeFor(browser, t, "valid@example.com", "sign-in");
      expect((await browser.post("/sign-in/email-otp", { email: "valid@example.com", otp })).status).toBe(200);
      expect(seen).toEqual([{ method: "email-otp", action: "create-user" }]);
    } finally {
      await t.close();
    }
  });

  it("additional user fields are read from the body", async () => {
    const t = await otpInstance("sqlite", {}, { user: { additionalFields: { plan: { type: "string", defaultValue: "free" } } } });
    try {
      const browser = client(t.auth);
      const otp = await codeFor(browser, t, "extra@example.com", "sign-in");
      const answer = await browser.post<{ user: { plan: string } }>("/sign-in/email-otp", { email: "extra@example.com", otp, plan: "pro" });
      expect(answer.json!.user.plan).toBe("pro");
    } finally {
      await t.close();
    }
  });

  it("otpLength, generateOTP and expiresIn", async () => {
    const t = await otpInstance("sqlite", { otpLength: 8, expiresIn: 60 });
    const custom = await otpInstance("sqlite", { generateOTP: ({ type }) => (type === "sign-in" ? "424242" : undefined) });
    try {
      const otp = await codeFor(client(t.auth), t, "len@example.com", "sign-in");
      expect(otp).toMatch(/^\d{8}$/);
      const row = (await rows(t))[0]!;
      expect(row.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(60_000);
      expect(await codeFor(client(custom.auth), custom, "gen@example.com", "sign-in")).toBe("424242");
    } finally {
      await t.close();
      await custom.close();
    }
  });
});
