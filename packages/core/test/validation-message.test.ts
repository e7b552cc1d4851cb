import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { validationMessage } from "../src/api/validation.ts";

const message = (schema: v.GenericSchema, input: unknown): string => {
  const result = v.safeParse(schema, input);
  if (result.success) throw new Error("expected issues");
  return validationMessage(result.issues, "body", schema);
};

describe("validationMessage: keys a strict object does not declare", () => {
  const schema = v.strictObject({
    message: v.string(),
    inner: v.optional(v.strictObject({ a: v.string() })),
  });

  it("one unknown key, in the reference's (zod's) words, at the object's path", () => {
    expect(message(schema, { message: "m", extra: true })).toBe('[body] Unrecognized key: "extra"');
  });

  it("several unknown keys in one entry; a nested object's come before its parent's, after the other issues (zod's order)", () => {
    expect(message(schema, { message: 5, walletAddress: "0x", chainId: 1, inner: { a: "x", b: 1 } })).toBe(
      '[body.message] Invalid input: expected string, received number; [body.inner] Unrecognized key: "b"; [body] Unrecognized keys: "walletAddress", "chainId"',
    );
  });
});
