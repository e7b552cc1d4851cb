import { describe, expect, it } from "vitest";
import { constantTimeEqual } from "../../src/crypto/index.js";

describe("constantTimeEqual", () => {
  it.each<[string, string | Uint8Array, string | Uint8Array, boolean]>([
    ["equal strings", "session-token", "session-token", true],
    ["empty strings", "", "", true],
    ["last char differs", "abcdef", "abcdeg", false],
    ["first char differs", "xbcdef", "abcdef", false],
    ["prefix (shorter)", "abc", "abcd", false],
    ["prefix (longer)", "abcd", "abc", false],
    ["empty vs non-empty", "", "a", false],
    ["trailing NUL is not ignored", "abc", "abc\u0000", false],
    ["non-ASCII equal", "ключ🔑", "ключ🔑", true],
    ["NFC vs NFD are different bytes", "é", "e\u0301", false],
    ["equal bytes", new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]), true],
    ["different bytes", new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]), false],
    ["zero-padded bytes", new Uint8Array([1, 2]), new Uint8Array([1, 2, 0]), false],
    ["string vs its UTF-8 bytes", "hé", new Uint8Array([0x68, 0xc3, 0xa9]), true],
  ])("%s", (_name, a, b, expected) => {
    expect(constantTimeEqual(a, b)).toBe(expected);
    expect(constantTimeEqual(b, a)).toBe(expected);
  });
});
