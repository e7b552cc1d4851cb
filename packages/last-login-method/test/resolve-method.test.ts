import { describe, expect, it } from "vitest";
import { defaultLoginMethod } from "../src/index.ts";

// The reference's path rules, one row per rule and the near misses around them.
const cases: Array<[path: string, params: Record<string, string>, expected: string | null]> = [
  ["/callback/:id", { id: "github" }, "github"],
  ["/callback/:id", {}, ":id"],
  ["/callback/google", {}, "google"],
  ["/sign-in/email", {}, "email"],
  ["/sign-up/email", {}, "email"],
  ["/sign-in/email-otp", {}, "email-otp"],
  ["/siwe/verify", {}, "siwe"],
  ["/passkey/verify-authentication", {}, "passkey"],
  ["/magic-link/verify", {}, "magic-link"],
  ["/sign-in/social", {}, null],
  ["/sign-in/username", {}, null],
  ["/email-otp/verify-email", {}, null],
  ["/oauth2/callback/:providerId", { providerId: "acme" }, null],
  ["/get-session", {}, null],
  ["", {}, null],
];

describe("defaultLoginMethod", () => {
  it.each(cases)("%s %j → %s", (path, params, expected) => {
    expect(defaultLoginMethod({ path, params })).toBe(expected);
  });
});
