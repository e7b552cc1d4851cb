import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisStorage } from "@latchkey/redis-storage";
import { testAuth, type DatabaseKind, type TestAuth, type TestClient } from "@latchkey/test-support";
import { Redis } from "ioredis";
import { twoFactor, type TwoFactorOptions } from "../src/index.ts";
import { challenged, enrolled, Outbox, totpCode, viewBackupCodes } from "./instance.ts";

/**
 * Races on every single-use secret and counter, on each database: ten requests at once,
 * exactly one may win. Sessions are counted in storage, not taken from the answers.
 */
const PARALLEL = 10;

/** The stores raced on: each database, and PostgreSQL with verification values and sessions in Redis only. */
const SETUPS: { name: string; db: DatabaseKind; redis: boolean }[] = [
  { name: "sqlite", db: "sqlite", redis: false },
  { name: "postgres", db: "postgres", redis: false },
  { name: "mysql", db: "mysql", redis: false },
  { name: "postgres + redis", db: "postgres", redis: true },
];

describe.each(SETUPS)("concurrent second factors on $name", ({ name, db, redis }) => {
  const kind = name.replace(/[^a-z]/g, "");
  const outbox = new Outbox();
  const client = redis ? new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true }) : null;
  const storage = client ? redisStorage({ client, keyPrefix: `lk-two-factor-${randomUUID()}:` }) : undefined;
  let t: TestAuth;
  beforeAll(async () => {
    await client?.connect();
    const options: TwoFactorOptions = {
      otpOptions: { sendOTP: outbox.send },
      accountLockout: { maxFailedAttempts: 10, durationSeconds: 900 },
    };
    t = await testAuth(
      { emailAndPassword: { enabled: true }, ...(storage ? { secondaryStorage: storage } : {}), plugins: [twoFactor(options)] },
      { db },
    );
  });
  afterAll(async () => {
    await t.close();
    await storage?.clear();
    client?.disconnect();
  });

  // Through core, so sessions kept in Redis only are counted too.
  const sessions = async (userId: string): Promise<number> => (await t.auth.$context.internalAdapter.listSessions(userId)).length;
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
