import { randomUUID } from "node:crypto";
import { redisStorage } from "@latchkey/redis-storage";
import type { DatabaseKind } from "@latchkey/test-support";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, phoneInstance, verifyNumber, type PhoneInstance } from "./instance.ts";

type Setup = { name: string; db: DatabaseKind; redis?: boolean };
const SETUPS: Setup[] = [
  { name: "SQLite", db: "sqlite" },
  { name: "PostgreSQL", db: "postgres" },
  { name: "MariaDB", db: "mysql" },
  { name: "Redis secondary storage (verification values only there)", db: "sqlite", redis: true },
];

describe.each(SETUPS)("phone codes under concurrency: $name", ({ db, redis: useRedis }) => {
  let t: PhoneInstance;
  let redis: Redis | undefined;
  let storage: ReturnType<typeof redisStorage> | undefined;
  beforeAll(async () => {
    if (useRedis) {
      redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
      await redis.connect();
      storage = redisStorage({ client: redis, keyPrefix: `lk-phone-${randomUUID()}:` });
    }
    t = await phoneInstance(db, { allowedAttempts: 3 }, storage ? { secondaryStorage: storage } : {});
  });
  afterAll(async () => {
    await t.close();
    await storage?.clear();
    redis?.disconnect();
  });

  it("one code sent to 10 parallel verifications signs in once", async () => {
    const phone = "+15555551001";
    await client(t.auth).post("/phone-number/send-otp", { phoneNumber: phone });
    const code = t.sms.last(phone);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        client(t.auth).post<{ token: string }>("/phone-number/verify", { phoneNumber: phone, code }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.status).toBe(400);
    const users = await t.auth.$context.adapter.findMany<{ id: string }>({
      model: "user",
      where: [{ field: "phoneNumber", value: phone }],
    });
    expect(users).toHaveLength(1);
    // Sessions live in the session table, or only in Redis when secondary storage is on.
    if (!useRedis)
      expect(
        await t.auth.$context.adapter.count({
          model: "session",
          where: [{ field: "userId", value: users[0]!.id }],
        }),
      ).toBe(1);
  });

  it("20 parallel wrong codes: at most allowedAttempts are counted, then the code is gone; the right one never passes after", async () => {
    const phone = "+15555551002";
    await client(t.auth).post("/phone-number/send-otp", { phoneNumber: phone });
    const code = t.sms.last(phone);
    const wrong = code === "000000" ? "111111" : "000000";
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        client(t.auth).post("/phone-number/verify", { phoneNumber: phone, code: wrong }),
      ),
    );
    expect(answers.every((a) => a.status === 400 || a.status === 403)).toBe(true);
    // Keep guessing until the code is dropped: never more than 3 wrong guesses get an INVALID_OTP.
    let invalid = answers.filter((a) => (a.json as { code?: string })?.code === "INVALID_OTP").length;
    for (let i = 0; i < 5; i++) {
      const answer = await client(t.auth).post("/phone-number/verify", { phoneNumber: phone, code: wrong });
      if ((answer.json as { code?: string }).code === "INVALID_OTP") invalid += 1;
    }
    expect(invalid).toBeLessThanOrEqual(3);
    const late = await client(t.auth).post("/phone-number/verify", { phoneNumber: phone, code });
    expect(late.status).not.toBe(200);
  });

  it("a reset code used by 10 parallel resets changes the password once", async () => {
    const phone = "+15555551003";
    await verifyNumber(t, client(t.auth), phone);
    await client(t.auth).post("/phone-number/request-password-reset", { phoneNumber: phone });
    const otp = t.sms.last(phone, "reset");
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        client(t.auth).post("/phone-number/reset-password", {
          otp,
          phoneNumber: phone,
          newPassword: `new password ${i}`,
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
  });
});
