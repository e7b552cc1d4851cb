import { describe, expect, it } from "vitest";
import { generateId, generateRandomString, type Alphabet } from "../../src/crypto/index.js";

describe("generateRandomString", () => {
  it.each<[string, Alphabet[], RegExp]>([
    ["default 64-char URL-safe set", [], /^[a-zA-Z0-9_-]+$/],
    ["a-z", ["a-z"], /^[a-z]+$/],
    ["A-Z", ["A-Z"], /^[A-Z]+$/],
    ["0-9", ["0-9"], /^[0-9]+$/],
    ["-_", ["-_"], /^[-_]+$/],
    ["0-9 + a-z (delete-account token)", ["0-9", "a-z"], /^[0-9a-z]+$/],
  ])("%s: length and alphabet", (_name, alphabets, pattern) => {
    for (const size of [1, 24, 32, 128, 40_000]) {
      const value = generateRandomString(size, ...alphabets);
      expect(value).toHaveLength(size);
      expect(value).toMatch(pattern);
    }
  });

  it("covers the whole alphabet roughly uniformly (62 chars: rejection sampling removes the a-h bias)", () => {
    const draws = 62 * 2000;
    const counts = new Map<string, number>();
    for (const ch of generateRandomString(draws, "a-z", "A-Z", "0-9"))
      counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Expected 2000 each; sd ≈ 44.4. Bounds at ±6 sd (a biased modulo would put a-h at 2500).
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(2000 - 270);
      expect(count).toBeLessThan(2000 + 270);
    }
    // Chi-squared with 61 degrees of freedom: p < 1e-6 beyond ~130.
    let chi2 = 0;
    for (const count of counts.values()) chi2 += (count - 2000) ** 2 / 2000;
    expect(chi2).toBeLessThan(130);
  });

  it("does not repeat (1000 x 32 chars)", () => {
    const seen = new Set(Array.from({ length: 1000 }, () => generateRandomString(32)));
    expect(seen.size).toBe(1000);
  });

  it.each([0, -1, 1.5, Number.NaN, Infinity])("rejects size %s", (size) => {
    expect(() => generateRandomString(size)).toThrow(RangeError);
  });

  it("rejects an unknown alphabet", () => {
    expect(() => generateRandomString(4, "x-y" as Alphabet)).toThrow(TypeError);
  });
});

describe("generateId", () => {
  it("is 32 alphanumerics by default, as the reference's ids and session tokens", () => {
    for (let i = 0; i < 100; i++) expect(generateId()).toMatch(/^[a-zA-Z0-9]{32}$/);
  });

  it("takes a size (24 for reset-password tokens)", () => {
    expect(generateId(24)).toMatch(/^[a-zA-Z0-9]{24}$/);
  });
});
