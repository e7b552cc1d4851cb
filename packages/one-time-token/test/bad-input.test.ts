import { badInputBattery, VALIDATION_ERROR } from "@latchkey/test-support";
import { expect } from "vitest";
import { ottInstance, signedIn } from "./instance.ts";

const INVALID = { status: 400, code: null, message: "Invalid token" };

badInputBattery({
  name: "one-time-token routes refuse bad input and write nothing (SQLite)",
  instance: async () => {
    const t = await ottInstance("sqlite");
    const { browser } = await signedIn(t, "battery");
    return { ...t, headers: { cookie: browser.jar.header()! } };
  },
  routes: [
    {
      method: "POST",
      path: "/one-time-token/verify",
      validBody: { token: "never-issued" },
      // A well-formed body with an unknown token: the reference's 400 carries a message and no code.
      expect: {
        "JSON array": VALIDATION_ERROR,
        "wrong type": VALIDATION_ERROR,
        "extra fields": INVALID,
        "prototype keys": INVALID,
        "oversized string": INVALID,
      },
    },
  ],
  check: (answer) => {
    if (answer.status >= 400) expect(answer.response.headers.getSetCookie()).toEqual([]);
  },
});

// GET /one-time-token/generate writes a row by design; without a session its odd queries are refused.
badInputBattery({
  name: "generate without a session refuses odd queries and writes nothing",
  instance: () => ottInstance("sqlite"),
  routes: [{ method: "GET", path: "/one-time-token/generate" }],
});
