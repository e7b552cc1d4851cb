import { createOTP } from "@better-auth/utils/otp";
import { createAuthClient } from "better-auth/client";
import { twoFactorClient } from "better-auth/client/plugins";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { hotp, matchTotp, totpCode, totpURI } from "@latchkey/two-factor";
import { jarFetch } from "./support/client-fetch.ts";
import { SESSION_COOKIE } from "./support/cookies.ts";
import { BASE_PATH, type Pair } from "./support/instances.ts";
import { listen } from "./support/server.ts";
import {
  Browser,
  challenge,
  enroll,
  outbox,
  PASSWORD,
  referenceCode,
  secretOf,
  TRUST_COOKIE,
  TWO_FACTOR_COOKIE,
  twoFactorPair,
  type Answer,
} from "./support/two-factor.ts";

/**
 * `@latchkey/two-factor` beside the reference's `twoFactor()` (better-auth/plugins) on one
 * SQLite file and one secret: the TOTP/HOTP arithmetic against the reference's own functions,
 * enrollments, backup codes, challenges, OTPs and trusted devices made on one side used on the
 * other, one scripted flow answered alike, the reference's `twoFactorClient()` against
 * Latchkey over real HTTP, and divergence rows 100-102.
 */
const utf8 = (text: string) => new TextEncoder().encode(text);
const SECRETS = ["12345678901234567890", "a-Z_09xyzABCDEFGHIJKLMNOPQRSTUVW", "Zz-_0123456789abcdefghijklmnopqr"];

describe("two-factor: HOTP/TOTP vectors computed by the reference's createOTP", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each(SECRETS)("HOTP of %s: counters 0-20, 2^31 and 2^40, 6 to 8 digits", async (secret) => {
    for (const digits of [6, 7, 8]) {
      for (const counter of [...Array.from({ length: 21 }, (_, i) => i), 2 ** 31, 2 ** 40]) {
        expect(hotp(utf8(secret), counter, digits)).toBe(await createOTP(secret, { digits }).hotp(counter));
      }
    }
  });

  it.each(SECRETS)("TOTP of %s at several instants, periods 30 and 60; the window edges as the reference verifies", async (secret) => {
    for (const period of [30, 60]) {
      for (const ms of [0, 59_000, 1_111_111_109_000, 1_700_000_000_123, 20_000_000_000_000]) {
        vi.useFakeTimers({ toFake: ["Date"], now: ms });
        const reference = await createOTP(secret, { period }).totp();
        expect(totpCode(secret, { digits: 6, period }, ms)).toBe(reference);
        // Edges of ±1 step: the reference and Latchkey accept and refuse the same instants.
        const step = Math.floor(ms / (period * 1000));
        for (const at of [(step - 1) * period * 1000, (step + 2) * period * 1000 - 1, (step + 2) * period * 1000, (step - 1) * period * 1000 - 1]) {
          vi.setSystemTime(at);
          const theirs = await createOTP(secret, { period }).verify(reference);
          expect(matchTotp(secret, reference, { digits: 6, period }, at) !== null).toBe(theirs);
        }
        vi.useRealTimers();
      }
    }
  });

  it("otpauth URIs are byte for byte the reference's", () => {
    for (const secret of SECRETS) {
      for (const [issuer, account] of [["My App", "a+b@example.com"], ["Ünïcödé & co", "x@y.z"], ["plain", "user"]] as const) {
        expect(totpURI(secret, issuer, account, { digits: 8, period: 60 })).toBe(createOTP(secret, { digits: 8, period: 60 }).url(issuer, account));
      }
    }
  });
});

describe("two-factor: stored enrollments carry over", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await twoFactorPair();
  });
  afterAll(() => pair.close());

  it("the twoFactor table and user column the reference migrated are Latchkey's, column for column", () => {
    const columns = (table: string) => (pair.db.prepare(`pragma table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
    expect(columns("twoFactor").sort()).toEqual(["backupCodes", "failedVerificationCount", "id", "lockedUntil", "secret", "userId", "verified"]);
    expect(columns("user")).toContain("twoFactorEnabled");
  });

  for (const [from, to] of [["reference", "latchkey"], ["latchkey", "reference"]] as const) {
    it(`a secret and backup codes enrolled on the ${from} sign in on the ${to}`, async () => {
      const email = `carry-${from}@example.com`;
      const { secret, backupCodes } = await enroll(new Browser(pair[from]), email);
      const row = pair.db.prepare(`select secret, backupCodes, verified from twoFactor`).all() as { secret: string; backupCodes: string }[];
      // Both encrypted: the `$ba$` envelope or hex, never the plain secret or a JSON list.
      for (const r of row) {
        expect(r.secret).not.toContain(secret);
        expect(r.backupCodes.startsWith("[")).toBe(false);
      }
      const byTotp = await challenge(pair[to], email);
      const totp = await byTotp.post("/two-factor/verify-totp", { code: await referenceCode(secret) });
      expect(totp.status).toBe(200);
      expect((await byTotp.session())?.user.email).toBe(email);
      const byCode = await challenge(pair[to], email);
      expect((await byCode.post("/two-factor/verify-backup-code", { code: backupCodes[0] })).status).toBe(200);
      // Used on one side, gone on both.
      const again = await challenge(pair[from], email);
      expect((await again.post("/two-factor/verify-backup-code", { code: backupCodes[0] })).json).toMatchObject({ code: "INVALID_BACKUP_CODE" });
      expect((await again.post("/two-factor/verify-backup-code", { code: backupCodes[1] })).status).toBe(200);
    });

    it(`a challenge, an OTP and a trusted device from the ${from} are honoured by the ${to}`, async () => {
      const email = `challenge-${from}@example.com`;
      const { secret } = await enroll(new Browser(pair[from]), email);
      const browser = await challenge(pair[from], email);
      expect((await browser.post("/two-factor/send-otp")).status).toBe(200);
      browser.handler = pair[to];
      expect((await browser.post("/two-factor/verify-otp", { code: outbox.get(email) })).status).toBe(200);

      const trusting = await challenge(pair[from], email);
      const trusted = await trusting.post("/two-factor/verify-totp", { code: await referenceCode(secret, Date.now() + 30_000), trustDevice: true });
      expect(trusted.status).toBe(200);
      const trust = trusting.jar.get(TRUST_COOKIE);
      expect(trust).toBeTruthy();
      await trusting.post("/sign-out");
      trusting.handler = pair[to];
      const next = await trusting.post("/sign-in/email", { email, password: PASSWORD });
      expect(next.json).toMatchObject({ token: expect.any(String) });
      expect(trusting.jar.get(TRUST_COOKIE)).not.toBe(trust);
    });
  }
});
