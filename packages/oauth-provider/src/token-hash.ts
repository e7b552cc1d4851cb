import { sha256 } from "@noble/hashes/sha2.js";
import { base64UrlEncode, constantTimeEqual, utf8Encode } from "@latchkey/core";
import type { ResolvedOAuthOptions, StoredTokenType } from "./options.js";

/**
 * SHA-256 of the UTF-8 text, base64url without padding: how the reference stores secrets, tokens
 * and codes. Synchronous (@noble/hashes): for inputs this short, WebCrypto's job round trip cost
 * more than the hash, and this runs on every token request and client authentication.
 */
export async function sha256Base64Url(value: string): Promise<string> {
  return base64UrlEncode(sha256(utf8Encode(value)));
}

/** The stored form of an opaque token or authorization code (its `token` / verification identifier). */
export async function storedToken(options: ResolvedOAuthOptions, token: string, type: StoredTokenType): Promise<string> {
  const method = options.storeTokens;
  return method === "hashed" ? sha256Base64Url(token) : method.hash(token, type);
}

/** The stored form of a new client secret. */
export async function storedClientSecret(options: ResolvedOAuthOptions, secret: string): Promise<string> {
  const method = options.storeClientSecret;
  return method === "hashed" ? sha256Base64Url(secret) : method.hash(secret);
}

/**
 * Whether `presented` (its prefix already stripped) is the secret behind `stored`. Compared
 * in constant time: the hash is not secret, but a timing oracle on it is still no business
 * of a caller's.
 */
export async function verifyClientSecret(options: ResolvedOAuthOptions, stored: string, presented: string): Promise<boolean> {
  const method = options.storeClientSecret;
  if (method !== "hashed" && method.verify) return method.verify(presented, stored);
  const hashed = method === "hashed" ? await sha256Base64Url(presented) : await method.hash(presented);
  return constantTimeEqual(utf8Encode(hashed), utf8Encode(stored));
}

/** Removes a configured prefix; `null` when the value lacks it (the token cannot be ours). */
export function stripPrefix(value: string, prefix: string | undefined): string | null {
  if (!prefix) return value;
  return value.startsWith(prefix) ? value.slice(prefix.length) : null;
}
