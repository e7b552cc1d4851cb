import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base64Decode, base64Encode, base64UrlDecode, base64UrlEncode, utf8Encode } from "./encoding.js";
import { constantTimeEqual } from "./constant-time.js";
import { nativeCrypto } from "./native.js";

type HmacEngine = (key: Uint8Array, data: Uint8Array) => Uint8Array;

// Signed cookies are checked on every request. HMAC-SHA256 over a few dozen bytes takes
// microseconds, so it runs synchronously: Web Crypto's promise-based HMAC hops to a thread
// pool and back on every call, which cost more than the MAC itself. node:crypto where the
// runtime has it, @noble/hashes elsewhere (edge runtimes): the same bytes either way.
let engine: HmacEngine | undefined;
function hmacEngine(): HmacEngine {
  if (engine) return engine;
  const native = nativeCrypto();
  const createHmac = native?.createHmac;
  engine = createHmac
    ? (key, data) => new Uint8Array(createHmac("sha256", key).update(data).digest())
    : (key, data) => hmac(sha256, key, data);
  return engine;
}

// UTF-8 bytes of recent secrets: a deployment signs with one current secret.
const keyBytes = new Map<string, Uint8Array>();
function keyOf(secret: string | Uint8Array): Uint8Array {
  if (typeof secret !== "string") return secret;
  let bytes = keyBytes.get(secret);
  if (!bytes) {
    if (keyBytes.size >= 16) keyBytes.clear();
    // Key = UTF-8 bytes of the secret, used as-is (RFC 2104 §2 hashes it only if > 64 bytes).
    bytes = utf8Encode(secret);
    keyBytes.set(secret, bytes);
  }
  return bytes;
}

/** HMAC-SHA256 (RFC 2104), synchronously. */
function mac(secret: string | Uint8Array, message: string | Uint8Array): Uint8Array {
  return hmacEngine()(keyOf(secret), typeof message === "string" ? utf8Encode(message) : message);
}

/** Computes HMAC-SHA256 (RFC 2104) of `message` under `secret` (a string stands for its UTF-8 bytes). */
export async function hmacSha256(
  secret: string | Uint8Array<ArrayBuffer>,
  message: string | Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(mac(secret, message));
}

// Recompute and compare in constant time: `===` on the MACs would leak the matching prefix.
function hmacVerify(secret: string, message: string, expected: Uint8Array): boolean {
  return constantTimeEqual(mac(secret, message), expected);
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
  let signatureBytes: Uint8Array;
  try {
    signatureBytes = base64Decode(signature);
  } catch {
    return null;
  }
  // A "==" ending decodes to 31 bytes; the comparison then fails, as it does in the reference.
  return hmacVerify(secret, value, signatureBytes) ? value : null;
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
  let signatureBytes: Uint8Array;
  try {
    // Padding tolerated: the reference's decoder stops at the first "=".
    signatureBytes = base64UrlDecode(signature);
  } catch {
    return false;
  }
  return hmacVerify(secret, message, signatureBytes);
}
