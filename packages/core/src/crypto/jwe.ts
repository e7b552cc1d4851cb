import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import type { JWTPayload } from "jose";
import { constantTimeEqual } from "./constant-time.js";
import { base64UrlDecode, base64UrlEncode, utf8Decode, utf8Encode } from "./encoding.js";
import { KeyCache } from "./key-cache.js";
import type { SecretConfig } from "./symmetric.js";

// The one JWE form the cookie cache uses, written on Web Crypto rather than through jose's
// general JWE machinery (every algorithm jose supports, ~20 KB minified in an edge bundle).
// Tokens are byte-compatible with jose's: the reference encrypts and decrypts them with
// jose's EncryptJWT / jwtDecrypt, and the compat tests exchange them both ways.

// RFC 7516 §4.1 / RFC 7518 §4.5: "dir" uses the shared key itself as the content key, and
// A256CBC-HS512 (RFC 7518 §5.2.5) needs exactly 64 bytes: 32 for HMAC, 32 for AES-CBC.
const ALG = "dir";
const ENC = "A256CBC-HS512";
const KEY_LENGTH = 64;
// HKDF "info" (RFC 5869 §2.3) fixed by the reference (inherited from Auth.js); changing it
// would change every derived key and orphan existing cookies.
const INFO = utf8Encode("BetterAuth.js Generated Encryption Key");

// As the reference's decrypt options: 15 s of clock skew tolerated on exp/nbf (RFC 7519 §4.1.4
// allows "some small leeway"). The reference also lists A256GCM, but "dir" + A256GCM needs a
// 32-byte key and jose refuses our 64-byte one, so such a token can never decrypt there
// either; accepting only A256CBC-HS512 changes no outcome.
const CLOCK_TOLERANCE = 15;
// RFC 7518 §5.2.5: A256CBC-HS512 has a 16-byte IV and a 32-byte tag (T_LEN).
const IV_LENGTH = 16;
const TAG_LENGTH = 32;
// jose decodes claims with a fatal decoder: invalid UTF-8 is a malformed token, not U+FFFD.
const strictDecoder = new TextDecoder("utf-8", { fatal: true });

interface DerivedKey {
  /** RFC 7518 §5.2.2.1: MAC_KEY, the first 32 bytes of the 64-byte key, for HMAC-SHA-512. */
  mac: CryptoKey;
  /** ENC_KEY, the last 32 bytes, for AES-256-CBC. */
  enc: CryptoKey;
  /** RFC 7638 SHA-256 thumbprint of the key as an `oct` JWK; names the key in the `kid` header. */
  kid: string;
}

// The JWE cookie cache decodes on every request; HKDF, a thumbprint and two key imports per
// configured secret are cheap but not free, so remember the last few (secret, salt) pairs.
const derived = new KeyCache<DerivedKey>(16);

function deriveKey(secret: string, salt: string): Promise<DerivedKey> {
  // NUL cannot start a salt we use ("better-auth-session" / "-account"), so the id is unambiguous.
  return derived.get(`${salt}\u0000${secret}`, async () => {
    const key = Uint8Array.from(hkdf(sha256, utf8Encode(secret), utf8Encode(salt), INFO, KEY_LENGTH));
    // RFC 7638 §3.2-3.3: an oct JWK's thumbprint hashes its required members only, `k` and
    // `kty`, in lexicographic order with no whitespace.
    const jwk = utf8Encode(`{"k":"${base64UrlEncode(key)}","kty":"oct"}`);
    const [digest, mac, enc] = await Promise.all([
      crypto.subtle.digest("SHA-256", jwk),
      crypto.subtle.importKey("raw", key.slice(0, 32), { name: "HMAC", hash: "SHA-512" }, false, ["sign"]),
      crypto.subtle.importKey("raw", key.slice(32), "AES-CBC", false, ["encrypt", "decrypt"]),
    ]);
    return { mac, enc, kid: base64UrlEncode(new Uint8Array(digest)) };
  });
}

/**
 * RFC 7518 §5.2.2.1 step 5-6: the authentication tag is the first T_LEN bytes of
 * HMAC-SHA-512(MAC_KEY, AAD || IV || ciphertext || AL), AL being the bit length of the AAD as
 * a 64-bit big-endian integer; the AAD is the ASCII of the encoded protected header (RFC 7516 §5.1 step 14).
 */
async function authTag(
  mac: CryptoKey,
  aad: Uint8Array,
  iv: Uint8Array,
  ciphertext: Uint8Array,
): Promise<Uint8Array> {
  const data = new Uint8Array(aad.length + iv.length + ciphertext.length + 8);
  data.set(aad, 0);
  data.set(iv, aad.length);
  data.set(ciphertext, aad.length + iv.length);
  const bits = aad.length * 8;
  const al = new DataView(data.buffer, data.length - 8);
  al.setUint32(0, Math.floor(bits / 2 ** 32));
  al.setUint32(4, bits >>> 0);
  return new Uint8Array(await crypto.subtle.sign("HMAC", mac, data), 0, TAG_LENGTH);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

// Decryption candidates: the current secret first, then the other versions in configured order,
// then the legacy secret unless it repeats one of them.
function candidates(secret: string | SecretConfig): string[] {
  if (typeof secret === "string") return [secret];
  const list = [secret.current.value];
  for (const value of secret.all.values()) if (!list.includes(value)) list.push(value);
  if (secret.legacy && !list.includes(secret.legacy)) list.push(secret.legacy);
  return list;
}

/**
 * Encrypts `payload` as a compact JWE (dir + A256CBC-HS512) under a key derived from the
 * current secret and `salt`, adding `iat`, `exp` (now + `expiresInSeconds`) and a random `jti`.
 */
export async function symmetricEncodeJWT(
  payload: JWTPayload,
  secret: string | SecretConfig,
  salt: string,
  expiresInSeconds = 3600,
): Promise<string> {
  const { mac, enc, kid } = await deriveKey(typeof secret === "string" ? secret : secret.current.value, salt);
  // The `kid` lets the reader pick the right version after a rotation without trial decryption.
  const header = base64UrlEncode(utf8Encode(JSON.stringify({ alg: ALG, enc: ENC, kid })));
  // Claims in jose's order: the payload's keys (an existing one keeps its place), then iat, exp, jti.
  const now = Math.floor(Date.now() / 1000);
  const claims: JWTPayload = { ...payload };
  claims.iat = now;
  claims.exp = now + expiresInSeconds;
  claims.jti = crypto.randomUUID();
  const iv = crypto.getRandomValues(new Uint8Array(IV_LENGTH));
  // RFC 7518 §5.2.2.1 steps 2-4: AES-CBC with PKCS #7 padding (Web Crypto pads itself).
  const ciphertext = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-CBC", iv }, enc, utf8Encode(JSON.stringify(claims))),
  );
  const tag = await authTag(mac, utf8Encode(header), iv, ciphertext);
  // RFC 7516 §7.1 compact serialization; "dir" has an empty encrypted-key segment.
  return `${header}..${base64UrlEncode(iv)}.${base64UrlEncode(ciphertext)}.${base64UrlEncode(tag)}`;
}

/**
 * Decrypts a JWE made by {@link symmetricEncodeJWT} with any configured secret version and
 * returns its claims, or `null` if it is malformed, tampered, expired or under an unknown key.
 */
export async function symmetricDecodeJWT(
  token: string,
  secret: string | SecretConfig,
  salt: string,
): Promise<JWTPayload | null> {
  if (!token) return null;
  const parts = token.split(".");
  if (parts.length !== 5) return null;
  const [protectedHeader, encryptedKey, iv64, ciphertext64, tag64] = parts as [
    string,
    string,
    string,
    string,
    string,
  ];
  let header: unknown;
  let iv: Uint8Array<ArrayBuffer>;
  let ciphertext: Uint8Array<ArrayBuffer>;
  let tag: Uint8Array;
  try {
    // jose parses headers leniently (U+FFFD for invalid UTF-8) and only the claims strictly.
    header = JSON.parse(utf8Decode(base64UrlDecode(protectedHeader)));
    iv = base64UrlDecode(iv64);
    ciphertext = base64UrlDecode(ciphertext64);
    tag = base64UrlDecode(tag64);
  } catch {
    return null;
  }
  // What jose refuses before any key is tried: another alg or enc than the two allowed, a
  // compression or critical header it does not implement (RFC 7516 §4.1.3, §4.1.13), an
  // encrypted key with "dir" (RFC 7518 §4.5), a missing tag or an IV of the wrong size.
  if (!isObject(header) || header.alg !== ALG || header.enc !== ENC) return null;
  if (header.zip !== undefined || header.crit !== undefined || encryptedKey !== "") return null;
  if (iv.length !== IV_LENGTH || tag64 === "") return null;
  const { kid } = header;
  const aad = utf8Encode(protectedHeader);
  for (const value of candidates(secret)) {
    const candidate = await deriveKey(value, salt);
    // With a `kid`, only the key it names is tried; a token naming no configured key is
    // rejected outright, as in the reference. Without one (older tokens), try each in turn.
    if (kid !== undefined && candidate.kid !== kid) continue;
    const claims = await open(candidate, aad, iv, ciphertext, tag);
    if (claims) return validClaims(header, claims) ? claims : null;
    if (kid !== undefined) return null;
  }
  return null;
}

/** Checks the tag, then decrypts (RFC 7518 §5.2.2.2: never decrypt before the MAC holds); `null` on any failure. */
async function open(
  key: DerivedKey,
  aad: Uint8Array,
  iv: Uint8Array<ArrayBuffer>,
  ciphertext: Uint8Array<ArrayBuffer>,
  tag: Uint8Array,
): Promise<JWTPayload | null> {
  // Constant-time: the comparison must not tell a forger how many tag bytes were right.
  if (!constantTimeEqual(tag, await authTag(key.mac, aad, iv, ciphertext))) return null;
  try {
    const plaintext = await crypto.subtle.decrypt({ name: "AES-CBC", iv }, key.enc, ciphertext);
    const claims: unknown = JSON.parse(strictDecoder.decode(plaintext));
    return isObject(claims) ? (claims as JWTPayload) : null;
  } catch {
    return null;
  }
}

/**
 * jwtDecrypt's claim checks, as the reference runs them: iat, nbf and exp must be numbers when
 * present; nbf not in the future and exp not past, each with the clock tolerance (RFC 7519
 * §4.1.4-4.1.5); and iss, sub or aud replicated into the header must equal the claim (RFC 7519 §5.3).
 */
function validClaims(header: Record<string, unknown>, claims: JWTPayload): boolean {
  const now = Math.floor(Date.now() / 1000);
  const { iat, nbf, exp } = claims;
  if (iat !== undefined && typeof iat !== "number") return false;
  if (nbf !== undefined && (typeof nbf !== "number" || nbf > now + CLOCK_TOLERANCE)) return false;
  if (exp !== undefined && (typeof exp !== "number" || exp <= now - CLOCK_TOLERANCE)) return false;
  for (const claim of ["iss", "sub"] as const) {
    if (header[claim] !== undefined && header[claim] !== claims[claim]) return false;
  }
  return header.aud === undefined || JSON.stringify(header.aud) === JSON.stringify(claims.aud);
}
