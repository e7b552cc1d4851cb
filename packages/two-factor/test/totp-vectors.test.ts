import { describe, expect, it } from "vitest";
import { utf8Encode } from "@latchkey/core";
import { base32NoPad, hotp, matchTotp, totpCode, totpURI } from "../src/totp.ts";

const RFC_SECRET = "12345678901234567890";

describe("RFC 4226 Appendix D: HOTP", () => {
  const expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"];
  it.each(expected.map((code, counter) => [counter, code]))("counter %i → %s", (counter, code) => {
    expect(hotp(utf8Encode(RFC_SECRET), counter as number, 6)).toBe(code);
  });
});

describe("RFC 6238 Appendix B: TOTP (SHA-1, 8 digits, X = 30)", () => {
  const vectors: [number, string][] = [
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ];
  it.each(vectors)("T = %i s → %s", (seconds, code) => {
    expect(totpCode(RFC_SECRET, { digits: 8, period: 30 }, seconds * 1000)).toBe(code);
    expect(matchTotp(RFC_SECRET, code, { digits: 8, period: 30 }, seconds * 1000)).toBe(Math.floor(seconds / 30));
  });
});

describe("RFC 4648 §10: base32 without padding", () => {
  it.each([
    ["", ""],
    ["f", "MY"],
    ["fo", "MZXQ"],
    ["foo", "MZXW6"],
    ["foob", "MZXW6YQ"],
    ["fooba", "MZXW6YTB"],
    ["foobar", "MZXW6YTBOI"],
  ])("%j → %s", (text, encoded) => {
    expect(base32NoPad(utf8Encode(text))).toBe(encoded);
  });
});

describe("the verification window: ±1 step, edges exact", () => {
  const params = { digits: 6, period: 30 };
  const step = 55_000_000;
  const code = hotp(utf8Encode(RFC_SECRET), step, 6);
  const at = (ms: number) => matchTotp(RFC_SECRET, code, params, ms);
  it("accepted from the start of the step before to the last millisecond of the step after", () => {
    expect(at((step - 1) * 30_000)).toBe(step);
    expect(at((step + 2) * 30_000 - 1)).toBe(step);
  });
  it("refused one millisecond outside", () => {
    expect(at((step - 1) * 30_000 - 1)).toBeNull();
    expect(at((step + 2) * 30_000)).toBeNull();
  });
  it("a custom period counts in seconds", () => {
    const sixty = { digits: 6, period: 60 };
    const c = hotp(utf8Encode(RFC_SECRET), 1000, 6);
    expect(matchTotp(RFC_SECRET, c, sixty, 1001 * 60_000 + 59_999)).toBe(1000);
    expect(matchTotp(RFC_SECRET, c, sixty, 1002 * 60_000)).toBeNull();
  });
  it("a code of another length or with other characters never matches", () => {
    expect(at(step * 30_000)).toBe(step);
    expect(matchTotp(RFC_SECRET, ` ${code}`, params, step * 30_000)).toBeNull();
    expect(matchTotp(RFC_SECRET, code.slice(1), params, step * 30_000)).toBeNull();
    expect(matchTotp(RFC_SECRET, "", params, step * 30_000)).toBeNull();
  });
});

describe("otpauth URI", () => {
  it("encodes label, secret and parameters as the Key Uri Format", () => {
    expect(totpURI("foobar", "My App", "a+b@example.com", { digits: 8, period: 60 })).toBe(
      "otpauth://totp/My%20App:a%2Bb%40example.com?secret=MZXW6YTBOI&issuer=My+App&digits=8&period=60",
    );
  });
});
