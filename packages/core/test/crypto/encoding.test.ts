import { describe, expect, it } from "vitest";
import {
  base64Decode,
  base64Encode,
  base64UrlDecode,
  base64UrlEncode,
  hexDecode,
  hexEncode,
  utf8Decode,
  utf8Encode,
} from "../../src/crypto/index.js";

const ascii = (s: string): Uint8Array => utf8Encode(s);

describe("base64 (RFC 4648 §10 test vectors)", () => {
  const vectors: Array<[string, string, string]> = [
    ["", "", ""],
    ["f", "Zg==", "Zg"],
    ["fo", "Zm8=", "Zm8"],
    ["foo", "Zm9v", "Zm9v"],
    ["foob", "Zm9vYg==", "Zm9vYg"],
    ["fooba", "Zm9vYmE=", "Zm9vYmE"],
    ["foobar", "Zm9vYmFy", "Zm9vYmFy"],
  ];
  it.each(vectors)("%j → %s / %s", (plain, std, url) => {
    expect(base64Encode(ascii(plain))).toBe(std);
    expect(base64UrlEncode(ascii(plain))).toBe(url);
    expect(utf8Decode(base64Decode(std))).toBe(plain);
    expect(utf8Decode(base64Decode(url))).toBe(plain);
    expect(utf8Decode(base64UrlDecode(url))).toBe(plain);
    expect(utf8Decode(base64UrlDecode(std))).toBe(plain);
  });

  it("uses +/ for standard and -_ for url alphabets", () => {
    const bytes = new Uint8Array([0xfb, 0xff, 0xbf]);
    expect(base64Encode(bytes)).toBe("+/+/");
    expect(base64UrlEncode(bytes)).toBe("-_-_");
    expect(base64Decode("+/+/")).toEqual(bytes);
    expect(base64UrlDecode("-_-_")).toEqual(bytes);
  });

  it("round-trips every byte value", () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    for (let n = 0; n <= 256; n += 17) {
      const slice = all.subarray(0, n);
      expect(base64Decode(base64Encode(slice))).toEqual(slice);
      expect(base64UrlDecode(base64UrlEncode(slice))).toEqual(slice);
    }
  });

  it.each([
    ["wrong alphabet for std", () => base64Decode("-_-_")],
    ["wrong alphabet for url", () => base64UrlDecode("+/+/")],
    ["impossible length", () => base64Decode("Zm9vY")],
    ["padding in the middle", () => base64Decode("Zg==Zg==")],
    ["non-ASCII", () => base64Decode("Zm9é")],
    ["whitespace", () => base64Decode("Zm9v Zm9v")],
  ])("rejects %s", (_name, fn) => {
    expect(fn).toThrow(TypeError);
  });

  it("ignores non-zero leftover bits like atob does", () => {
    // "Zh==" and "Zg==" both carry the byte 0x66 in their first 8 bits.
    expect(base64Decode("Zh==")).toEqual(ascii("f"));
    expect(Uint8Array.from(atob("Zh=="), (c) => c.charCodeAt(0))).toEqual(ascii("f"));
  });
});

describe("hex", () => {
  it("encodes lowercase and decodes either case (RFC 4648 §10 base16)", () => {
    expect(hexEncode(ascii("foobar"))).toBe("666f6f626172");
    expect(utf8Decode(hexDecode("666F6F626172"))).toBe("foobar");
    expect(utf8Decode(hexDecode("666f6f626172"))).toBe("foobar");
    expect(hexEncode(new Uint8Array([0, 1, 15, 16, 255]))).toBe("00010f10ff");
    expect(hexDecode("")).toEqual(new Uint8Array(0));
  });

  it.each(["abc", "zz", "0g", " 0", "0x00"])("rejects %j", (input) => {
    expect(() => hexDecode(input)).toThrow(TypeError);
  });
});

describe("utf8", () => {
  it("round-trips non-ASCII text", () => {
    const text = "ünïcødé ✓ 🔑 ключ";
    expect(utf8Decode(utf8Encode(text))).toBe(text);
    expect(utf8Encode("é")).toEqual(new Uint8Array([0xc3, 0xa9]));
  });

  it("replaces invalid sequences instead of throwing", () => {
    expect(utf8Decode(new Uint8Array([0x61, 0xff, 0x62]))).toBe("a\ufffdb");
    expect(utf8Encode("\ud800")).toEqual(new Uint8Array([0xef, 0xbf, 0xbd]));
  });
});
