import { describe, expect, it } from "vitest";
import { base32Decode, currentStep, keyOfURI, totpAt } from "../src/totp.js";

describe("totp", () => {
  // RFC 6238 appendix B, SHA-1: the ASCII key "12345678901234567890", 8 digits.
  const key = Buffer.from("12345678901234567890");
  it.each([
    [59, "94287082"],
    [1111111109, "07081804"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
  ])("the RFC's code at %i s", (seconds, code) => {
    expect(totpAt(key, currentStep(30, seconds * 1000), 8)).toBe(code);
  });

  it("reads the key of an otpauth URI (base32)", () => {
    expect(base32Decode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")).toEqual(key);
    expect(keyOfURI("otpauth://totp/App:a%40b.c?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=App")).toEqual(key);
    expect(() => keyOfURI("otpauth://totp/x?issuer=App")).toThrow(/no secret/);
  });
});
