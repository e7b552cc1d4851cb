import { badInputBattery, client, VALIDATION_ERROR, type CaseExpectations } from "@latchkey/test-support";
import { expect } from "vitest";
import { otpInstance, signUp } from "./instance.ts";

/** Core's validation answers, as the reference gives them. */
const validation: CaseExpectations = { "JSON array": VALIDATION_ERROR, "wrong type": VALIDATION_ERROR };
/** Requests that stay valid (extra or prototype keys are dropped) store a code, as a real request does. */
const stores: CaseExpectations = {
  ...validation,
  "extra fields": { status: 200, writes: true },
  "prototype keys": { status: [200, 400], writes: true },
};
/** A code that was never sent: refused before anything is written. */
const refused: CaseExpectations = { ...validation, "extra fields": { status: 400, code: "INVALID_OTP" } };

badInputBattery({
  name: "email-otp routes refuse bad input and write nothing (SQLite)",
  instance: async () => {
    const t = await otpInstance("sqlite", { changeEmail: { enabled: true } });
    const browser = client(t.auth);
    await signUp(browser, "battery@example.com");
    return { ...t, headers: { cookie: browser.jar.header()! } };
  },
  routes: [
    { method: "POST", path: "/email-otp/send-verification-otp", validBody: { email: "sender@example.com", type: "sign-in" }, expect: stores },
    { method: "POST", path: "/email-otp/check-verification-otp", validBody: { email: "battery@example.com", type: "sign-in", otp: "123456" }, expect: refused },
    { method: "POST", path: "/email-otp/verify-email", validBody: { email: "battery@example.com", otp: "123456" }, expect: refused },
    { method: "POST", path: "/sign-in/email-otp", validBody: { email: "battery@example.com", otp: "123456" }, expect: refused },
    // Unknown addresses: the code is stored and dropped again, so nothing is left written.
    { method: "POST", path: "/email-otp/request-password-reset", validBody: { email: "nobody@example.com" }, expect: validation },
    { method: "POST", path: "/forget-password/email-otp", validBody: { email: "nobody@example.com" }, expect: validation },
    {
      method: "POST",
      path: "/email-otp/reset-password",
      validBody: { email: "battery@example.com", otp: "123456", password: "new-password-1" },
      expect: refused,
    },
    // The current address again: refused with the reference's code-less message, nothing stored.
    {
      method: "POST",
      path: "/email-otp/request-email-change",
      validBody: { newEmail: "battery@example.com" },
      expect: {
        ...validation,
        "extra fields": { status: 400, code: null, message: "Email is the same" },
        "prototype keys": { status: 400, code: null },
      },
    },
    { method: "POST", path: "/email-otp/change-email", validBody: { newEmail: "other@example.com", otp: "123456" }, expect: refused },
  ],
  check: (answer) => {
    const cookies = answer.response.headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith("better-auth.session_token="))).toBe(false);
  },
});
