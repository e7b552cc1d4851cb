import { badInputBattery, client, VALIDATION_ERROR, type CaseExpectations } from "@latchkey/test-support";
import { expect } from "vitest";
import { phoneInstance } from "./instance.ts";

/** Validation answers, as the reference gives them (and 400 for numbers longer than the column). */
const validation: CaseExpectations = {
  "JSON array": VALIDATION_ERROR,
  "wrong type": VALIDATION_ERROR,
  "oversized string: phoneNumber": VALIDATION_ERROR,
};

/** A valid body plus ignored keys is a valid request: a code is stored (and sent). */
const sends: CaseExpectations = {
  ...validation,
  "extra fields": { status: 200, writes: true },
  "prototype keys": { status: 200, writes: true },
};

const noCookies = (answer: { status: number; response: Response }) => {
  if (answer.status >= 400) expect(answer.response.headers.getSetCookie()).toEqual([]);
};

badInputBattery({
  name: "phone-number routes refuse bad input and write nothing (SQLite)",
  instance: () => phoneInstance("sqlite"),
  routes: [
    {
      method: "POST",
      path: "/sign-in/phone-number",
      validBody: { phoneNumber: "+15555550000", password: "a password" },
      expect: validation,
    },
    {
      method: "POST",
      path: "/phone-number/send-otp",
      validBody: { phoneNumber: "+15555550000" },
      expect: sends,
    },
    {
      method: "POST",
      path: "/phone-number/request-password-reset",
      validBody: { phoneNumber: "+15555550000" },
      expect: sends,
    },
  ],
  check: noCookies,
});

badInputBattery({
  // A wrong code is counted against the stored one (and drops it after allowedAttempts): that
  // write is the point, so the verification table is left out; users, accounts and sessions are not.
  name: "phone-number code routes refuse bad input and write no user, account or session (SQLite)",
  instance: async () => {
    const t = await phoneInstance("sqlite");
    await client(t.auth).post("/phone-number/send-otp", { phoneNumber: "+15555550000" });
    return t;
  },
  ignoreTables: ["verification"],
  routes: [
    {
      method: "POST",
      path: "/phone-number/verify",
      validBody: { phoneNumber: "+15555550000", code: "not-the-code" },
      expect: validation,
    },
    {
      method: "POST",
      path: "/phone-number/reset-password",
      validBody: { otp: "not-the-code", phoneNumber: "+15555550000", newPassword: "a new password" },
      expect: validation,
    },
  ],
  check: noCookies,
});
