import { describe, expect, it } from "vitest";
import { createAuth, defineErrorCodes, memoryAdapter, type LatchkeyPlugin } from "../src/index.ts";

/** A plugin with nothing but error codes. */
function codes(id: string, errorCodes: Record<string, string>): LatchkeyPlugin {
  return { id, errorCodes: defineErrorCodes(errorCodes) };
}

const make = (...plugins: LatchkeyPlugin[]) =>
  createAuth({ database: memoryAdapter(), secret: "s".repeat(32), baseURL: "http://localhost:3000", plugins });

describe("$ERROR_CODES: core and plugin codes merged as the reference merges them", () => {
  it("two plugins may declare one code with different messages (captcha and passkey: UNKNOWN_ERROR); the later wins", () => {
    const auth = make(
      codes("first", { UNKNOWN_ERROR: "Unknown error", FIRST_ONLY: "First" }),
      codes("second", { UNKNOWN_ERROR: "Something went wrong" }),
    );
    expect(auth.$ERROR_CODES).toMatchObject({ UNKNOWN_ERROR: "Something went wrong", FIRST_ONLY: "First" });
  });

  it("a plugin may repeat one of core's codes with core's message, never with another", () => {
    expect(make(codes("same", { USER_NOT_FOUND: "User not found" })).$ERROR_CODES).toMatchObject({
      USER_NOT_FOUND: "User not found",
    });
    expect(() => make(codes("shadow", { USER_NOT_FOUND: "Nobody here" }))).toThrow(/USER_NOT_FOUND/);
  });
});
