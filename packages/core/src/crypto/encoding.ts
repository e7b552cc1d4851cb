// Byte/text codecs shared by the crypto modules. Hand-written on purpose: core runs on edge
// runtimes with no `Buffer`, and `Uint8Array.fromBase64`/`toHex` are not in Node 20.
//
// Every function returns `Uint8Array<ArrayBuffer>` (not `ArrayBufferLike`) so results can be
// passed straight to Web Crypto, whose `BufferSource` refuses SharedArrayBuffer views.

const encoder = new TextEncoder();
// Non-fatal decoding (invalid sequences become U+FFFD), as the reference's `TextDecoder()`
// does when it turns decrypted bytes back into a string.
const decoder = new TextDecoder();

/** Encodes a string as UTF-8 bytes (lone surrogates become U+FFFD, as in every JS runtime). */
export function utf8Encode(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}

/** Decodes UTF-8 bytes to a string, replacing invalid sequences with U+FFFD instead of throwing. */
export function utf8Decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

const HEX = "0123456789abcdef";

/** Encodes bytes as lowercase hex, the form the reference stores (password hashes, ciphertexts). */
export function hexEncode(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += HEX[byte >> 4]! + HEX[byte & 15]!;
  return out;
}

// One nibble from one char code: 0-9, a-f and A-F (the reference's decoder, @noble/ciphers
// `hexToBytes`, accepts both cases); -1 for anything else.
function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/** Decodes hex (either case) to bytes; throws a `TypeError` on odd length or a non-hex char. */
export function hexDecode(hex: string): Uint8Array<ArrayBuffer> {
  if (hex.length % 2 !== 0) throw new TypeError("hex input has odd length");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(hex.charCodeAt(2 * i));
    const lo = nibble(hex.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) throw new TypeError("hex input has a non-hex character");
    out[i] = (hi << 4) | lo;
  }
  return out;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// Reverse lookup tables indexed by char code (< 128); -1 marks a char outside the alphabet.
function reverse(alphabet: string): Int8Array {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
}
const B64_REV = reverse(B64);
const B64URL_REV = reverse(B64URL);

function encode(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  let out = "";
  let i = 0;
  // Whole 3-byte groups → 4 chars.
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + alphabet[n & 63]!;
  }
  // RFC 4648 §4: a 1- or 2-byte tail yields 2 or 3 chars, padded with "=" to 4 when asked.
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + (pad ? "==" : "");
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + (pad ? "=" : "");
  }
  return out;
}

function decode(text: string, table: Int8Array): Uint8Array<ArrayBuffer> {
  let end = text.length;
  // Padding is optional, but when present it must complete a 4-char group (RFC 4648 §3.2).
  if (end % 4 === 0 && text.endsWith("=")) end -= text.endsWith("==") ? 2 : 1;
  // A single leftover char carries only 6 bits: no byte can come from it.
  if (end % 4 === 1) throw new TypeError("base64 input has an impossible length");
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? table[code]! : -1;
    if (value < 0) throw new TypeError("base64 input has a character outside its alphabet");
    acc = ((acc << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 255;
    }
  }
  // Leftover low bits of the last char are ignored, not rejected: WHATWG `atob` (which the
  // reference's cookie verifier uses) and @better-auth/utils' decoder both do the same.
  return out;
}

/** Encodes bytes as standard base64 (`+/`) with `=` padding, the form of signed-cookie signatures. */
export function base64Encode(bytes: Uint8Array): string {
  return encode(bytes, B64, true);
}

/** Decodes standard base64 (`+/`), padding optional; throws a `TypeError` on malformed input. */
export function base64Decode(text: string): Uint8Array<ArrayBuffer> {
  return decode(text, B64_REV);
}

/** Encodes bytes as base64url (`-_`) without padding (RFC 4648 §5, as JOSE and the compact cookie cache use). */
export function base64UrlEncode(bytes: Uint8Array): string {
  return encode(bytes, B64URL, false);
}

/** Decodes base64url (`-_`), padding optional; throws a `TypeError` on malformed input. */
export function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> {
  return decode(text, B64URL_REV);
}
