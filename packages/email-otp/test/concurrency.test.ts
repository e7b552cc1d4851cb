import { createHash, randomUUID } from "node:crypto";
import { redisStorage } from "@latchkey/redis-storage";
import type { DatabaseKind } from "@latchkey/test-support";
import type { LatchkeyOptions } from "@latchkey/core";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { client, codeFor, otpInstance, wrong, type OTPInstance } from "./instance.ts";

/** Ten parallel sign-ins with the right code: exactly one session. */
async function raceRightCode(t: OTPInstance): Promise<void> {
  const otp = await codeFor(client(t.auth), t, "race@example.com", "sign-in");
  const answers = await Promise.all(
    Array.from({ length: 10 }, () => client(t.auth).post("/sign-in/email-otp", { email: "race@example.com", otp })),
  );
  expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
  expect(answers.filter((a) => a.status === 400).every((a) => (a.json as { code: string }).code === "INVALID_OTP")).toBe(true);
  const user = (await t.auth.$context.internalAdapter.findUserByEmail("race@example.com"))!.user;
  expect(await t.auth.$context.internalAdapter.listSessions(user.id)).toHaveLength(1);
}

/** Hashes codes as `storeOTP: "hashed"` does, counting the calls: one per stored code, one per comparison. */
const counted = { calls: 0 };
const countingHash = {
  hash: async (otp: string): Promise<string> => {
    counted.calls++;
    return createHash("sha256").update(otp).digest("base64url");
  },
};

/**
 * Twenty parallel wrong codes, on sign-in and on check, then waves of more: no more than
 * `allowedAttempts` (3) guesses are ever compared with the code (the counting hasher sees each
 * comparison), and the right code is refused afterwards — sending guesses at once cannot
 * outrun the counter.
 */
async function raceWrongCodes(t: OTPInstance, path: "/sign-in/email-otp" | "/email-otp/check-verification-otp"): Promise<void> {
  const email = `guess-${path.length}@example.com`;
  const otp = await codeFor(client(t.auth), t, email, "sign-in");
  counted.calls = 0;
  for (let wave = 0; wave < 3; wave++) {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => client(t.auth).post(path, { email, type: "sign-in", otp: wrong(otp) })),
    );
    expect(answers.every((a) => a.status === 400 || a.status === 403)).toBe(true);
  }
  expect(counted.calls).toBeLessThanOrEqual(3);
  const right = await client(t.auth).post("/sign-in/email-otp", { email, otp });
  expect(right.status).not.toBe(200);
  expect(counted.calls).toBeLessThanOrEqual(3);
}

const cases = (t: () => OTPInstance) => {
  it("a right code redeemed by 10 parallel requests signs in once", () => raceRightCode(t()));
  it("20 parallel wrong codes on sign-in do not outrun allowedAttempts", () => raceWrongCodes(t(), "/sign-in/email-otp"));
  it("20 parallel wrong codes on check-verification-otp do not outrun allowedAttempts", () =>
    raceWrongCodes(t(), "/email-otp/check-verification-otp"));
};

describe.each<DatabaseKind>(["sqlite", "postgres", "mysql"])("codes under concurrency on %s", (db) => {
  let t: OTPInstance;
  afterAll(() => t?.close());
  it("starts", async () => {
    t = await otpInstance(db, { storeOTP: countingHash });
  });
  cases(() => t);
});

describe("codes under concurrency with Redis secondary storage", () => {
  const redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
  const storage = redisStorage({ client: redis, keyPrefix: `lk-email-otp-${randomUUID()}:` });
  let t: OTPInstance;
  afterAll(async () => {
    await t?.close();
    await storage.clear();
    redis.disconnect();
  });
  it("starts; codes live in Redis as `verification:<type>-otp-<email>`", async () => {
    await redis.connect();
    const extra: Partial<LatchkeyOptions> = { secondaryStorage: storage };
    t = await otpInstance("sqlite", { storeOTP: countingHash }, extra);
    const otp = await codeFor(client(t.auth), t, "stored@example.com", "sign-in");
    const stored = JSON.parse((await storage.get("verification:sign-in-otp-stored@example.com")) as string) as { value: string };
    expect(stored.value).toBe(`${createHash("sha256").update(otp).digest("base64url")}:0`);
  });
  cases(() => t);
});
