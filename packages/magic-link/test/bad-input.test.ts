import { badInputBattery, VALIDATION_ERROR, type CaseExpectations } from "@latchkey/test-support";
import { expect } from "vitest";
import { magicInstance } from "./instance.ts";

/** A well-formed request the handler accepts mails a link and stores its row: allowed to write. */
const acceptedWrites: CaseExpectations = {
  "extra fields": { status: 200, writes: true },
  "prototype keys": { status: [200, 400], writes: true },
  // callbackURL is optional and unbounded in the reference: these are valid requests.
  "missing field: callbackURL": { status: 200, writes: true },
  "oversized string: callbackURL": { status: 200, writes: true },
};

badInputBattery({
  name: "magic-link routes refuse bad input and write nothing (SQLite)",
  instance: () => magicInstance("sqlite"),
  routes: [
    {
      method: "POST",
      path: "/sign-in/magic-link",
      validBody: { email: "battery@example.com", callbackURL: "/in" },
      expect: { "JSON array": VALIDATION_ERROR, "wrong type": VALIDATION_ERROR, ...acceptedWrites },
    },
    // An unknown token passes validation and ends in the INVALID_TOKEN redirect, writing nothing.
    { method: "GET", path: "/magic-link/verify", validQuery: { token: "unknown-token", callbackURL: "/in" } },
  ],
  // A refused or redirected request never signs anyone in.
  check: (answer) => {
    const cookies = answer.response.headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith("better-auth.session_token="))).toBe(false);
  },
});
