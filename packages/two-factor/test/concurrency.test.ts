import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_KINDS, type TestAuth, type TestClient } from "@latchkey/test-support";
import { challenged, enrolled, Outbox, totpCode, twoFactorInstance, viewBackupCodes } from "./instance.ts";

/**
 * Races on every single-use secret and counter, on each database: ten requests at once,
 * exactly one may win. Sessions are counted in storage, not taken from the answers.
 */
const PARALLEL = 10;

describe.each(DATABASE_KINDS)("concurrent second factors on %s", (kind) => {
  const outbox = new Outbox();
  let t: TestAuth;
  beforeAll(async () => {
    t = await twoFactorInstance(kind, {
      otpOptions: { sendOTP: outbox.send },
      accountLockout: { maxFailedAttempts: 10, durationSeconds: 900 },
    });
  });
  afterAll(() => t.close());

  const sessions = async (userId: string): Promise<number> =>
    t.auth.$context.adapter.count({ model: "session", where: [{ field: "userId", value: userId }] });
  const challenges = (email: string, n: number): Promise<TestClient[]> =>
    Promise.all(Array.from({ length: n }, () => challenged(t, email)));

  it("one backup code raced by ten pending sign-ins signs in once", async () => {
    const { backupCodes, userId } = await enrolled(t, `backup-${kind}@example.com`);
    const before = await sessions(userId);
    const browsers = await challenges(`backup-${kind}@example.com`, PARALLEL);
    const answers = await Promise.all(browsers.map((b) => b.post("/two-factor/verify-backup-code", { code: backupCodes[0] })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect([401, 409]).toContain(a.status);
    expect(await sessions(userId)).toBe(before + 1);
    expect(await viewBackupCodes(t, userId)).toEqual(backupCodes.slice(1));
  });

  it("one backup code raced by ten requests on one challenge signs in once", async () => {
    const { backupCodes, userId } = await enrolled(t, `backup1-${kind}@example.com`);
    const before = await sessions(userId);
    const [browser] = await challenges(`backup1-${kind}@example.com`, 1);
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, () => browser!.post("/two-factor/verify-backup-code", { code: backupCodes[1] })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await sessions(userId)).toBe(before + 1);
  });

  it("one sent OTP raced by ten requests signs in once", async () => {
    const email = `otp-${kind}@example.com`;
    const { userId } = await enrolled(t, email);
    const before = await sessions(userId);
    const [browser] = await challenges(email, 1);
    expect((await browser!.post("/two-factor/send-otp")).status).toBe(200);
    const code = outbox.last(email);
    const answers = await Promise.all(Array.from({ length: PARALLEL }, () => browser!.post("/two-factor/verify-otp", { code })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect([400, 401]).toContain(a.status);
    expect(await sessions(userId)).toBe(before + 1);
  });

  it("one TOTP code raced by ten pending sign-ins is accepted once", async () => {
    const email = `totp-${kind}@example.com`;
    const { secret, userId } = await enrolled(t, email);
    const before = await sessions(userId);
    const browsers = await challenges(email, PARALLEL);
    const code = totpCode(secret, { digits: 6, period: 30 });
    const answers = await Promise.all(browsers.map((b) => b.post("/two-factor/verify-totp", { code })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.json).toMatchObject({ code: "INVALID_CODE" });
    expect(await sessions(userId)).toBe(before + 1);
  });

  it("twenty wrong codes at once count ten failures and lock the user; the right code is then refused", async () => {
    const email = `lock-${kind}@example.com`;
    const { secret, userId } = await enrolled(t, email);
    const browsers = await challenges(email, 21);
    const last = browsers.pop()!;
    const answers = await Promise.all(browsers.map((b) => b.post("/two-factor/verify-totp", { code: "000000" })));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(10);
    const locked = answers.filter((a) => a.status === 429);
    expect(locked).toHaveLength(10);
    for (const a of locked) expect(a.json).toMatchObject({ code: "ACCOUNT_TEMPORARILY_LOCKED" });
    const row = await t.auth.$context.adapter.findOne<{ failedVerificationCount: number; lockedUntil: Date | null }>({
      model: "twoFactor",
      where: [{ field: "userId", value: userId }],
    });
    expect(row!.failedVerificationCount).toBe(10);
    expect(row!.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 890_000);
    const right = await last.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 6, period: 30 }) });
    expect(right.status).toBe(429);
  });
});
