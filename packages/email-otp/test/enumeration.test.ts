import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, otpInstance, signUp, type OTPInstance } from "./instance.ts";

/**
 * Known and unknown addresses get the same answer, and the same time within 60 ms (the median
 * of three pairs timed side by side), even with a mail sender that takes 150 ms (the routes
 * answer no sooner than 500 ms either way).
 */
describe("no enumeration through answers or timing", () => {
  let t: OTPInstance;
  beforeAll(async () => {
    t = await otpInstance("sqlite", {
      disableSignUp: true,
      sendVerificationOTP: () => new Promise((resolve) => setTimeout(resolve, 150)),
    });
    await signUp(client(t.auth), "known@example.com");
  });
  afterAll(() => t.close());

  const requests: Array<[string, (email: string) => [string, Record<string, unknown>]]> = [
    ["send-verification-otp (email-verification)", (email) => ["/email-otp/send-verification-otp", { email, type: "email-verification" }]],
    ["send-verification-otp (sign-in, sign-up off)", (email) => ["/email-otp/send-verification-otp", { email, type: "sign-in" }]],
    ["send-verification-otp (forget-password)", (email) => ["/email-otp/send-verification-otp", { email, type: "forget-password" }]],
    ["request-password-reset", (email) => ["/email-otp/request-password-reset", { email }]],
    ["forget-password/email-otp", (email) => ["/forget-password/email-otp", { email }]],
  ];

  it.each(requests)("%s", async (_name, make) => {
    const timed = async (email: string) => {
      const [path, body] = make(email);
      const start = performance.now();
      const answer = await client(t.auth).post(path, body);
      return { ms: performance.now() - start, status: answer.status, text: answer.text };
    };
    // Each pair is timed side by side, so a busy machine slows both alike; the median of three
    // pairs' differences is what must stay under 60 ms.
    const differences: number[] = [];
    for (let i = 0; i < 3; i++) {
      const [known, unknown] = await Promise.all([timed("known@example.com"), timed(`unknown-${i}@example.com`)]);
      expect([unknown.status, unknown.text]).toEqual([known.status, known.text]);
      expect(Math.min(known.ms, unknown.ms)).toBeGreaterThanOrEqual(495);
      differences.push(Math.abs(known.ms - unknown.ms));
    }
    expect(differences.sort((a, b) => a - b)[1]).toBeLessThan(60);
  });
});
