import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { validationMessage } from "../src/api/validation.ts";

/**
 * zod (the reference's validator) words an enum miss as `Invalid option: expected one of
 * "a"|"b"`, for a wrong value and for a missing key alike; valibot's picklist must read the same
 * (email OTP's `type` field).
 */
describe("VALIDATION_ERROR message of a picklist field", () => {
  const schema = v.object({ email: v.string(), type: v.picklist(["sign-in", "forget-password"]) });
  const message = (input: unknown) => {
    const result = v.safeParse(schema, input);
    return result.success ? null : validationMessage(result.issues, "body", schema);
  };

  it("a value outside the options", () => {
    expect(message({ email: "a", type: "other" })).toBe('[body.type] Invalid option: expected one of "sign-in"|"forget-password"');
  });

  it("a missing key, and a value of another type", () => {
    expect(message({ email: "a" })).toBe('[body.type] Invalid option: expected one of "sign-in"|"forget-password"');
    expect(message({ email: "a", type: 5 })).toBe('[body.type] Invalid option: expected one of "sign-in"|"forget-password"');
  });

  it("other fields keep their wording", () => {
    expect(message({ type: "sign-in" })).toBe("[body.email] Invalid input: expected string, received undefined");
  });
});
