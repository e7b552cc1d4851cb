import { base64Decode, base64Encode, base64UrlDecode, base64UrlEncode, utf8Encode } from "./encoding.js";
import { KeyCache } from "./key-cache.js";

const HMAC_SHA256 = { name: "HMAC", hash: "SHA-256" } as const;

// Signed cookies are verified on every request, and `importKey` is the costly part of a Web
// Crypto HMAC (it hashes long keys and allocates a native key object). A deployment signs
// with one current secret, so a handful of slots is plenty.
const keys = new KeyCache<CryptoKey>(16);

function hmacKey(secret: string | Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  // Key = UTF-8 bytes of the secret, used as-is (RFC 2104 §2 hashes it only if > 64 bytes).
  // Non-extractable: nothing here needs the raw key back out of the CryptoKey.
  const importKey = (raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> =>
    crypto.subtle.importKey("raw", raw, HMAC_SHA256, false, ["sign", "verify"]);
  // Raw byte keys (spec vectors, callers with binary keys) are rare and not cached.
  if (typeof secret !== "string") return importKey(secret);
  return keys.get(secret, () => importKey(utf8Encode(secret)));
}

/** Computes HMAC-SHA256 (RFC 2104) of `message` under `secret` (a string stands for its UTF-8 bytes). */
export async function hmacSha256(
  secret: string | Uint8Array<ArrayBuffer>,
  message: string | Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  const data = typeof message === "string" ? utf8Encode(message) : message;
  return new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret), data));
}

// Verification goes through `crypto.subtle.verify`, which compares MACs in constant time
// (recomputing and comparing with `===` would leak the matching prefix length).
async function hmacVerify(secret: string, message: string, mac: Uint8Array<ArrayBuffer>): Promise<boolean> {
  return crypto.subtle.verify("HMAC", await hmacKey(secret), mac, utf8Encode(message));
}

/**
 * Signs a cookie value the way better-call does: `value + "." + base64(HMAC-SHA256(secret, value))`
 * with standard, padded base64 (always 44 chars); not URI-encoded, the cookie layer does that.
 */
export async function signCookieValue(value: string, secret: string): Promise<string> {
  return `${value}.${base64Encode(await hmacSha256(secret, value))}`;
}

// A SHA-256 MAC is 32 bytes → ceil(32/3)*4 = 44 base64 chars, the last being one "=".
const SIGNATURE_LENGTH = 44;

/**
 * Checks a `value.signature` string made by {@link signCookieValue} and returns the value,
 * or `null` when it is malformed or the signature does not verify under `secret`.
 */
export async function verifySignedCookieValue(signed: string, secret: string): Promise<string | null> {
  // Split at the LAST dot: the value itself may contain dots, the base64 signature never does.
  const dot = signed.lastIndexOf(".");
  // Reference (better-call `getSignedCookie`): a dot at index 0 (empty value) or none at all
  // means no signed cookie, and so does a signature that is not 44 chars ending in "=".
  if (dot < 1) return null;
  const value = signed.slice(0, dot);
  const signature = signed.slice(dot + 1);
  if (signature.length !== SIGNATURE_LENGTH || !signature.endsWith("=")) return null;
  let mac: Uint8Array<ArrayBuffer>;
  try {
    mac = base64Decode(signature);
  } catch {
    return null;
  }
  // A "==" ending decodes to 31 bytes; `verify` then answers false, as it does in the reference.
  return (await hmacVerify(secret, value, mac)) ? value : null;
}

/** Computes base64url (no padding) HMAC-SHA256, the signature of the compact `session_data` cookie cache. */
export async function hmacBase64Url(secret: string, message: string): Promise<string> {
  return base64UrlEncode(await hmacSha256(secret, message));
}

/** Checks, in constant time, a base64url HMAC-SHA256 made by {@link hmacBase64Url}; malformed input is `false`. */
export async function verifyHmacBase64Url(
  secret: string,
  message: string,
  signature: string,
): Promise<boolean> {
  let mac: Uint8Array<ArrayBuffer>;
  try {
    // Padding tolerated: the reference's decoder stops at the first "=".
    mac = base64UrlDecode(signature);
  } catch {
    return false;
  }
  return hmacVerify(secret, message, mac);
}
