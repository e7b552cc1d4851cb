import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { EncryptJWT, calculateJwkThumbprint, decodeProtectedHeader, jwtDecrypt, type JWTPayload } from "jose";
import { base64UrlEncode, utf8Encode } from "./encoding.js";
import { KeyCache } from "./key-cache.js";
import type { SecretConfig } from "./symmetric.js";

// RFC 7516 §4.1 / RFC 7518 §4.5: "dir" uses the shared key itself as the content key, and
// A256CBC-HS512 (RFC 7518 §5.2.5) needs exactly 64 bytes: 32 for HMAC, 32 for AES-CBC.
const ALG = "dir";
const ENC = "A256CBC-HS512";
const KEY_LENGTH = 64;
// HKDF "info" (RFC 5869 §2.3) fixed by the reference (inherited from Auth.js); changing it
// would change every derived key and orphan existing cookies.
const INFO = utf8Encode("BetterAuth.js Generated Encryption Key");

// Decrypt options, as the reference: 15 s of clock skew tolerated on exp/nbf (RFC 7519 §4.1.4
// allows "some small leeway"). The reference also lists A256GCM, but "dir" + A256GCM needs a
// 32-byte key and jose refuses our 64-byte one, so such a token can never decrypt there
// either; leaving it out changes no outcome.
const DECRYPT_OPTIONS = {
  clockTolerance: 15,
  keyManagementAlgorithms: [ALG],
  contentEncryptionAlgorithms: [ENC],
};

interface DerivedKey {
  key: Uint8Array<ArrayBuffer>;
  /** RFC 7638 SHA-256 thumbprint of the key as an `oct` JWK; names the key in the `kid` header. */
  kid: string;
}

// The JWE cookie cache decodes on every request; HKDF plus a thumbprint per configured secret
// is cheap but not free, so remember the last few (secret, salt) pairs.
const derived = new KeyCache<DerivedKey>(16);

function deriveKey(secret: string, salt: string): Promise<DerivedKey> {
  // NUL cannot start a salt we use ("better-auth-session" / "-account"), so the id is unambiguous.
  return derived.get(`${salt}\u0000${secret}`, async () => {
    const key = Uint8Array.from(hkdf(sha256, utf8Encode(secret), utf8Encode(salt), INFO, KEY_LENGTH));
    // RFC 7638 §3.2: an oct JWK's thumbprint covers only its required members, `k` and `kty`.
    const kid = await calculateJwkThumbprint({ kty: "oct", k: base64UrlEncode(key) }, "sha256");
    return { key, kid };
  });
}

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
  const { key, kid } = await deriveKey(typeof secret === "string" ? secret : secret.current.value, salt);
  // The `kid` lets the reader pick the right version after a rotation without trial decryption.
  return new EncryptJWT(payload)
    .setProtectedHeader({ alg: ALG, enc: ENC, kid })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
    .setJti(crypto.randomUUID())
    .encrypt(key);
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
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return null;
  }
  for (const value of candidates(secret)) {
    const candidate = await deriveKey(value, salt);
    // With a `kid`, only the key it names is tried; a token naming no configured key is
    // rejected outright, as in the reference. Without one (older tokens), try each in turn.
    if (kid !== undefined && candidate.kid !== kid) continue;
    try {
      // jose checks the HMAC tag before decrypting (RFC 7518 §5.2.2.2), then exp with leeway.
      return (await jwtDecrypt(token, candidate.key, DECRYPT_OPTIONS)).payload;
    } catch {
      if (kid !== undefined) return null;
    }
  }
  return null;
}
