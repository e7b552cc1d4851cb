import { badInputBattery, VALIDATION_ERROR, type CaseExpectations } from "@latchkey/test-support";
import { expect } from "vitest";
import { siweInstance } from "./instance.ts";

/** Validation answers, as the reference gives them (its body schemas are strict objects). */
const validation: CaseExpectations = {
  "JSON array": VALIDATION_ERROR,
  "wrong type": VALIDATION_ERROR,
};

/** For the nonce routes an empty body is the valid request: it issues (and stores) a nonce. */
const nonceIssued = { status: 200, writes: true };
const nonce: CaseExpectations = {
  ...validation,
  "empty object": nonceIssued,
  "no body, no content type": nonceIssued,
  "empty JSON body": nonceIssued,
};

badInputBattery({
  name: "siwe routes refuse bad input and write nothing (SQLite)",
  instance: () => siweInstance("sqlite"),
  routes: [
    { method: "POST", path: "/siwe/nonce", expect: nonce },
    { method: "POST", path: "/siwe/get-nonce", expect: nonce },
    {
      method: "POST",
      path: "/siwe/verify",
      validBody: { message: "not a SIWE message", signature: "0x00" },
      expect: validation,
    },
  ],
  check: (answer) => {
    if (answer.status >= 400) expect(answer.response.headers.getSetCookie()).toEqual([]);
  },
});
