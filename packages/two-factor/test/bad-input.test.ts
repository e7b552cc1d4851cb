import { badInputBattery, routesFromEndpoints, VALIDATION_ERROR, type CaseExpectations } from "@latchkey/test-support";
import { expect } from "vitest";
import { twoFactor } from "../src/index.ts";
import { enrolled, SESSION_COOKIE, twoFactorInstance } from "./instance.ts";

/** Core's validation answers, as the reference gives them. */
const validation: CaseExpectations = {
  "JSON array": VALIDATION_ERROR,
  "wrong type": VALIDATION_ERROR,
};

/** Bodies each route validates and then refuses without a write (wrong password, a code that never matches). */
const bodies = {
  enableTwoFactor: { validBody: { password: "not-the-password", method: "totp" } },
  disableTwoFactor: { validBody: { password: "not-the-password" } },
  getTOTPURI: { validBody: { password: "not-the-password" } },
  verifyTOTP: { validBody: { code: "abcdef", trustDevice: false } },
  sendTwoFactorOTP: { validBody: { trustDevice: false } },
  verifyTwoFactorOTP: { validBody: { code: "abcdef", trustDevice: false } },
  verifyBackupCode: { validBody: { code: "nope-nope", disableSession: false, trustDevice: false } },
  generateBackupCodes: { validBody: { password: "not-the-password" } },
};

const routes = routesFromEndpoints(twoFactor().endpoints, { routes: bodies });

badInputBattery({
  name: "two-factor routes with an enrolled user's session refuse bad input and write nothing (SQLite)",
  // No `sendOTP`: send-otp answers OTP_NOT_CONFIGURED instead of writing a code.
  instance: async () => {
    const t = await twoFactorInstance("sqlite");
    const { browser } = await enrolled(t, "battery@example.com");
    return { ...t, headers: { cookie: browser.jar.header()! } };
  },
  routes,
  expect: validation,
  // A refused request never replaces the session.
  check: (answer) => {
    if (answer.status >= 400) {
      expect(answer.response.headers.getSetCookie().filter((l) => l.startsWith(`${SESSION_COOKIE}=`))).toEqual([]);
    }
  },
});

badInputBattery({
  name: "two-factor routes without a session or challenge refuse bad input and write nothing (SQLite)",
  instance: () => twoFactorInstance("sqlite", { otpOptions: { sendOTP: () => {} } }),
  routes,
  expect: validation,
  check: (answer) => {
    if (answer.status < 400) throw new Error(`answered ${answer.status} without credentials`);
  },
});
