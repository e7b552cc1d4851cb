import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestAuth } from "@latchkey/test-support";
import { challenged, enrolled, Outbox, PASSWORD, totpCode, TRUST_COOKIE, TWO_FACTOR_COOKIE, twoFactorInstance } from "./instance.ts";

/**
 * Every limit at its edge, with the clock moved (only `Date` is faked: the database and its
 * driver run for real). Units as the reference documents them: `otpOptions.period` minutes,
 * everything else seconds.
 */
const outbox = new Outbox();
let t: TestAuth;
const START = Date.UTC(2030, 0, 1, 12, 0, 0);
beforeAll(async () => {
  t = await twoFactorInstance("sqlite", {
    otpOptions: { sendOTP: outbox.send, period: 1 },
    twoFactorCookieMaxAge: 120,
    trustDeviceMaxAge: 3600,
    accountLockout: { maxFailedAttempts: 3, durationSeconds: 60 },
    totpOptions: { period: 60 },
  });
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});
const at = (ms: number) => vi.setSystemTime(new Date(ms));
const clock = () => vi.useFakeTimers({ toFake: ["Date"], now: START });

describe("limits at their edges", () => {
  it("a sent OTP lives `period` minutes: accepted at the last millisecond, expired one after", async () => {
    await enrolled(t, "otp-edge@example.com", { period: 60 });
    clock();
    const browser = await challenged(t, "otp-edge@example.com");
    await browser.post("/two-factor/send-otp");
    at(START + 60_000);
    expect((await browser.post("/two-factor/verify-otp", { code: outbox.last("otp-edge@example.com") })).status).toBe(200);

    at(START);
    const late = await challenged(t, "otp-edge@example.com");
    await late.post("/two-factor/send-otp");
    at(START + 60_000 + 1);
    const answer = await late.post("/two-factor/verify-otp", { code: outbox.last("otp-edge@example.com") });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: "OTP_HAS_EXPIRED" });
  });

  it("the challenge cookie says Max-Age=twoFactorCookieMaxAge and the challenge ends with it", async () => {
    const { secret } = await enrolled(t, "cookie-edge@example.com", { period: 60 });
    clock();
    const browser = await challenged(t, "cookie-edge@example.com");
    at(START + 120_000 + 1);
    const late = await browser.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 6, period: 60 }) });
    expect(late.status).toBe(401);
    expect(late.json).toMatchObject({ code: "INVALID_TWO_FACTOR_COOKIE" });

    at(START);
    const again = await challenged(t, "cookie-edge@example.com");
    at(START + 120_000);
    const onTime = await again.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 6, period: 60 }) });
    expect(onTime.status).toBe(200);
  });

  it("a trusted device is trusted for trustDeviceMaxAge seconds, not a millisecond more", async () => {
    const { secret } = await enrolled(t, "trust-edge@example.com", { period: 60 });
    clock();
    const browser = await challenged(t, "trust-edge@example.com");
    const verified = await browser.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 6, period: 60 }), trustDevice: true });
    expect(verified.headers.getSetCookie().find((l) => l.startsWith(`${TRUST_COOKIE}=`))).toContain("Max-Age=3600");
    const trust = browser.jar.values.get(TRUST_COOKIE)!;
    at(START + 3_600_000 + 1);
    const stale = await challenged(t, "trust-edge@example.com", { [TRUST_COOKIE]: trust });
    expect(stale.jar.values.has(TRUST_COOKIE)).toBe(false);
    expect(stale.jar.values.has(TWO_FACTOR_COOKIE)).toBe(true);
  });

  it("the lockout holds durationSeconds: still locked at the last millisecond, open at the instant", async () => {
    const { secret } = await enrolled(t, "lock-edge@example.com", { period: 60 });
    clock();
    const browser = await challenged(t, "lock-edge@example.com");
    for (let i = 0; i < 3; i++) expect((await browser.post("/two-factor/verify-totp", { code: "000000" })).status).toBe(401);
    const fresh = await challenged(t, "lock-edge@example.com");
    at(START + 60_000 - 1);
    const code = () => totpCode(secret, { digits: 6, period: 60 });
    const locked = await fresh.post("/two-factor/verify-totp", { code: code() });
    expect(locked.status).toBe(429);
    at(START + 60_000);
    const open = await fresh.post("/two-factor/verify-totp", { code: code() });
    expect(open.status).toBe(200);
  });

  it("a TOTP period of 60 seconds: the code of two steps ago is refused", async () => {
    const { secret } = await enrolled(t, "period-edge@example.com", { period: 60 });
    const browser = await challenged(t, "period-edge@example.com");
    const old = await browser.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 6, period: 60 }, Date.now() - 120_000) });
    expect(old.status).toBe(401);
    const uri = await enrolledURI("uri-edge@example.com");
    expect(uri).toContain("period=60");
  });
});

async function enrolledURI(email: string): Promise<string> {
  const { browser } = await enrolled(t, email, { period: 60 });
  const answer = await browser.post<{ totpURI: string }>("/two-factor/get-totp-uri", { password: PASSWORD });
  return answer.json!.totpURI;
}
