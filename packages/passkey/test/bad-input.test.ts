import { badInputBattery, VALIDATION_ERROR, type CaseExpectations } from "@latchkey/test-support";
import { expect } from "vitest";
import { browser, ORIGIN, passkeyInstance, register, signUp, SoftwareAuthenticator } from "./instance.ts";

/** Core's validation answers, as the reference gives them. */
const validation: CaseExpectations = {
  "JSON array": VALIDATION_ERROR,
  "wrong type": VALIDATION_ERROR,
};

/** Without a challenge cookie the verifications stop at the challenge: nothing is consumed or written. */
const challenge: CaseExpectations = {
  ...validation,
  "empty object": { status: 400 },
  "missing field": { status: 400 },
};

const QUERY_MAY_WRITE: CaseExpectations = Object.fromEntries(
  ["repeated key", "huge value", "array key", "invalid percent-encoding", "control characters"].map((family) => [
    family,
    { writes: true },
  ]),
);

badInputBattery({
  name: "passkey routes refuse bad input and write nothing (SQLite)",
  // A signed-in browser owning one passkey: the cases reach the handlers.
  instance: async () => {
    const t = await passkeyInstance("sqlite");
    const b = browser(t);
    await signUp(b, "battery@example.com");
    const registered = await register(b, new SoftwareAuthenticator({ origin: ORIGIN }));
    if (registered.status !== 200) throw new Error(registered.text);
    // The challenge cookie of that registration is used up; drop it so every case starts without one.
    b.jar.values.delete("better-auth.better-auth-passkey");
    return { ...t, headers: { cookie: b.jar.header()!, origin: ORIGIN } };
  },
  routes: [
    {
      method: "POST",
      path: "/passkey/verify-registration",
      validBody: { response: { id: "x" }, name: "n", createSession: false },
      // `response` is open (as in the reference): any JSON reaches the challenge check.
      expect: {
        ...challenge,
        "wrong type: response as number": { status: 400, code: "CHALLENGE_NOT_FOUND" },
        "wrong type: response as string": { status: 400, code: "CHALLENGE_NOT_FOUND" },
        "wrong type: response as boolean": { status: 400, code: "CHALLENGE_NOT_FOUND" },
        "wrong type: response as array": { status: 400, code: "CHALLENGE_NOT_FOUND" },
        "wrong type: response as object": { status: 400, code: "CHALLENGE_NOT_FOUND" },
      },
    },
    { method: "POST", path: "/passkey/verify-authentication", validBody: { response: { id: "x" } }, expect: challenge },
    { method: "POST", path: "/passkey/delete-passkey", validBody: { id: "unknown" }, expect: validation },
    { method: "POST", path: "/passkey/update-passkey", validBody: { id: "unknown", name: "n" }, expect: validation },
    { method: "GET", path: "/passkey/list-user-passkeys" },
    // The option routes store a challenge whenever they answer 200: odd queries are refused
    // (400, nothing written) or read as the reference reads them (200, one challenge).
    {
      method: "GET",
      path: "/passkey/generate-register-options",
      validQuery: { authenticatorAttachment: "platform", name: "n", context: "c" },
      expect: QUERY_MAY_WRITE,
    },
    { method: "GET", path: "/passkey/generate-authenticate-options", expect: QUERY_MAY_WRITE },
  ],
  check: (answer) => {
    if (answer.status >= 400) expect(answer.response.headers.getSetCookie()).toEqual([]);
  },
});
