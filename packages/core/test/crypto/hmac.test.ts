import { describe, expect, it } from "vitest";
import {
  hexDecode,
  hexEncode,
  hmacBase64Url,
  hmacSha256,
  signCookieValue,
  utf8Decode,
  utf8Encode,
  verifyHmacBase64Url,
  verifySignedCookieValue,
} from "../../src/crypto/index.js";
import {
  LIVE_SET_COOKIE,
  REFERENCE_COMPACT_SIGNATURES,
  REFERENCE_COOKIE_SIGNATURES,
  SECRET,
} from "./reference-vectors.js";

const bytes = (hex: string): Uint8Array<ArrayBuffer> => hexDecode(hex);
const repeat = (byte: string, n: number): Uint8Array<ArrayBuffer> => bytes(byte.repeat(n));

// RFC 4231 §4.2-4.8. Test case 5 checks a 128-bit truncation of the output.
const RFC4231: Array<[string, Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>, string]> = [
  [
    "1",
    repeat("0b", 20),
    utf8Encode("Hi There"),
    "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
  ],
  [
    "2",
    utf8Encode("Jefe"),
    utf8Encode("what do ya want for nothing?"),
    "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
  ],
  [
    "3",
    repeat("aa", 20),
    repeat("dd", 50),
    "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
  ],
  [
    "4",
    bytes("0102030405060708090a0b0c0d0e0f10111213141516171819"),
    repeat("cd", 50),
    "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
  ],
  ["5", repeat("0c", 20), utf8Encode("Test With Truncation"), "a3b6167473100ee06e0c796c2955552b"],
  [
    "6",
    repeat("aa", 131),
    utf8Encode("Test Using Larger Than Block-Size Key - Hash Key First"),
    "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
  ],
  [
    "7",
    repeat("aa", 131),
    utf8Encode(
      "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.",
    ),
    "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
  ],
];

describe("hmacSha256 (RFC 4231)", () => {
  it.each(RFC4231)("test case %s", async (_case, key, data, expected) => {
    const mac = hexEncode(await hmacSha256(key, data));
    expect(mac.slice(0, expected.length)).toBe(expected);
  });

  it("takes a string key as its UTF-8 bytes (test case 2 as text)", async () => {
    expect(hexEncode(await hmacSha256("Jefe", "what do ya want for nothing?"))).toBe(RFC4231[1]![3]);
  });
});

describe("signCookieValue / verifySignedCookieValue", () => {
  it.each(REFERENCE_COOKIE_SIGNATURES)(
    "matches better-call byte for byte: $value",
    async ({ value, secret, signature }) => {
      const signed = await signCookieValue(value, secret);
      expect(signed).toBe(`${value}.${signature}`);
      expect(signature).toHaveLength(44);
      expect(await verifySignedCookieValue(signed, secret)).toBe(value || null);
    },
  );

  // Cookie values of a live reference instance (percent-decoded, as the cookie layer will).
  const live = [...LIVE_SET_COOKIE.signUp, ...LIVE_SET_COOKIE.signInNoRemember]
    .map((header) => /^better-auth\.(session_token|dont_remember)=([^;]*)/.exec(header))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [m[1]!, decodeURIComponent(m[2]!)] as const);

  it("found the live session_token and dont_remember cookies", () => {
    expect(live.map(([name]) => name)).toEqual(["session_token", "session_token", "dont_remember"]);
  });

  it.each(live)("verifies the live reference %s cookie", async (name, raw) => {
    const value = await verifySignedCookieValue(raw, SECRET);
    expect(value).toBe(name === "dont_remember" ? "true" : raw.slice(0, raw.lastIndexOf(".")));
    expect(await signCookieValue(value!, SECRET)).toBe(raw);
    expect(await verifySignedCookieValue(raw, `${SECRET}x`)).toBeNull();
  });

  it("splits at the last dot, so values may contain dots", async () => {
    const signed = await signCookieValue("a.b.c", "k");
    expect(await verifySignedCookieValue(signed, "k")).toBe("a.b.c");
  });

  it("is not URI-encoded (the cookie layer does that)", async () => {
    const signed = await signCookieValue("true", SECRET);
    expect(signed).toBe("true.2Q7qxj/11DldXW8be7RmiJCA7bM+Y0L1gL5sny1v/J8=");
    expect(signed).toContain("/");
    expect(signed).toContain("+");
    expect(signed.endsWith("=")).toBe(true);
  });

  const good = `j8ymsXR5F2WqxmLfP6fFYt0ns9zcFmA9.${REFERENCE_COOKIE_SIGNATURES[0]!.signature}`;
  const sig = REFERENCE_COOKIE_SIGNATURES[0]!.signature;
  it.each([
    ["no dot", good.replace(".", "")],
    ["empty value", `.${sig}`],
    ["value changed", `k${good.slice(1)}`],
    ["signature char changed", `${good.slice(0, -3)}${good.at(-3) === "A" ? "B" : "A"}${good.slice(-2)}`],
    ["signature without padding", good.slice(0, -1)],
    ["signature too long", `${good}=`],
    ["signature not ending in =", `${good.slice(0, -1)}A`],
    ["base64url signature", good.replace(/\+/g, "-").replace(/\//g, "_")],
    ["percent-encoded signature", encodeURIComponent(good)],
    ["31-byte signature (==)", `value.${"A".repeat(42)}==`],
    ["non-base64 signature", `value.${"!".repeat(43)}=`],
    ["empty string", ""],
  ])("rejects %s", async (_name, signed) => {
    expect(await verifySignedCookieValue(signed, SECRET)).toBeNull();
  });

  it("rejects a signature made with another secret", async () => {
    const signed = await signCookieValue("token", "secret-a");
    expect(await verifySignedCookieValue(signed, "secret-b")).toBeNull();
  });

  it("keeps working past the key cache bound (many secrets)", async () => {
    const secrets = Array.from({ length: 40 }, (_, i) => `secret-${i}`);
    const signed = await Promise.all(secrets.map((s) => signCookieValue("v", s)));
    for (let i = 0; i < secrets.length; i++) {
      expect(await verifySignedCookieValue(signed[i]!, secrets[i]!)).toBe("v");
    }
  });
});

describe("hmacBase64Url / verifyHmacBase64Url (compact cookie cache)", () => {
  it.each(REFERENCE_COMPACT_SIGNATURES)(
    "matches @better-auth/utils base64urlnopad: $message",
    async ({ secret, message, signature }) => {
      expect(await hmacBase64Url(secret, message)).toBe(signature);
      expect(await verifyHmacBase64Url(secret, message, signature)).toBe(true);
      expect(await verifyHmacBase64Url(secret, `${message} `, signature)).toBe(false);
      expect(await verifyHmacBase64Url(`${secret}x`, message, signature)).toBe(false);
    },
  );

  it("re-signs the live reference session_data cookie identically", async () => {
    for (const header of [LIVE_SET_COOKIE.signUp[1]!, LIVE_SET_COOKIE.signInNoRemember[2]!]) {
      const value = /^better-auth\.session_data=([^;]*)/.exec(header)![1]!;
      const json = utf8Decode(
        Uint8Array.from(atob(value.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)),
      );
      const cache = JSON.parse(json) as {
        session: Record<string, unknown>;
        expiresAt: number;
        signature: string;
      };
      // The reference signs JSON.stringify({...sessionData, expiresAt}).
      const message = JSON.stringify({ ...cache.session, expiresAt: cache.expiresAt });
      expect(await hmacBase64Url(SECRET, message)).toBe(cache.signature);
      expect(await verifyHmacBase64Url(SECRET, message, cache.signature)).toBe(true);
    }
  });

  it.each([
    ["standard alphabet", "zrkqyTrO5CLXZYMzA+uCuOhZNP3n7caUBFYpvd3A+mE"],
    ["truncated", "zrkqyTrO5CLXZYMzA-uCuOhZNP3n7caUBFYpvd3A-m"],
    ["garbage", "not a signature"],
    ["empty", ""],
  ])("rejects a %s signature", async (_name, signature) => {
    expect(await verifyHmacBase64Url(SECRET, '{"a":1}', signature)).toBe(false);
  });
});
