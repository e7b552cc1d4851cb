import { badInputBattery, VALIDATION_ERROR, type CaseFamily } from "@latchkey/test-support";
import { afterAll, beforeAll } from "vitest";
import { captchaInstance } from "./instance.ts";
import { startSiteVerify, type SiteVerifyStub } from "./stub.ts";

// The captcha adds no route; it guards others. With a token the provider accepts, bad input on
// a guarded route reaches the route's own validation and is refused there without a write.
const FAMILIES: CaseFamily[] = [
  "malformed JSON", "JSON array", "JSON null", "JSON string", "JSON number", "JSON boolean", "empty object",
  "missing field", "wrong type", "extra fields", "prototype keys", "oversized body", "oversized string",
  "content type", "no content type", "no body", "empty JSON body", "repeated key", "huge value", "array key",
  "invalid percent-encoding", "control characters",
];

let stub: SiteVerifyStub;
beforeAll(async () => {
  stub = await startSiteVerify();
});
afterAll(() => stub.close());

badInputBattery({
  name: "guarded routes with an accepted token refuse bad input and write nothing",
  instance: async () => ({
    ...(await captchaInstance({ provider: "hcaptcha", secretKey: "s", siteVerifyURLOverride: stub.url })),
    headers: { "x-captcha-response": "accepted" },
  }),
  routes: [
    {
      method: "POST",
      path: "/sign-in/email",
      validBody: { email: "nobody@example.com", password: "not-the-password" },
      expect: { "JSON array": VALIDATION_ERROR, "wrong type": VALIDATION_ERROR },
    },
  ],
});

badInputBattery({
  name: "guarded routes without a token answer 400 MISSING_RESPONSE to any input",
  instance: () => captchaInstance({ provider: "hcaptcha", secretKey: "s", siteVerifyURLOverride: "http://127.0.0.1:1/" }),
  routes: [{ method: "POST", path: "/sign-up/email", validBody: { email: "a@example.com", password: "x", name: "x" } }],
  // The check runs before the body is read: every case, even an oversized body, gets its answer.
  expect: Object.fromEntries(FAMILIES.map((family) => [family, { status: 400, code: "MISSING_RESPONSE" }])),
});
