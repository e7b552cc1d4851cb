import { badInputBattery, client, VALIDATION_ERROR, type CaseExpectations } from "@latchkey/test-support";
import { expect } from "vitest";
import { multiInstance, signUp } from "./instance.ts";

/** Core's validation answers, as the reference gives them. */
const validation: CaseExpectations = {
  "JSON array": VALIDATION_ERROR,
  "wrong type": VALIDATION_ERROR,
};

badInputBattery({
  name: "multi-session routes refuse bad input and write nothing (SQLite)",
  // A signed-in browser holding its own multi cookie: the cases reach the handlers.
  instance: async () => {
    const t = await multiInstance("sqlite");
    const browser = client(t.auth);
    await signUp(browser, "battery");
    return { ...t, headers: { cookie: browser.jar.header()! } };
  },
  routes: [
    // An unknown token: valid to validation, then refused without a write.
    { method: "POST", path: "/multi-session/set-active", validBody: { sessionToken: "unknown" }, expect: validation },
    { method: "POST", path: "/multi-session/revoke", validBody: { sessionToken: "unknown" }, expect: validation },
    { method: "GET", path: "/multi-session/list-device-sessions" },
  ],
  // Nothing is switched or revoked by a refused request, so no cookie is written either.
  check: (answer) => {
    if (answer.status >= 400) expect(answer.response.headers.getSetCookie()).toEqual([]);
  },
});
