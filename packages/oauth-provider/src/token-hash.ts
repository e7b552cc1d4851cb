import { sha256 } from "@noble/hashes/sha2.js";
import { base64UrlEncode, constantTimeEqual, symmetricDecrypt, symmetricEncrypt, utf8Encode, type AuthContext } from "@latchkey/core";
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

/** The stored form of a new client secret (`ctx` keys `"encrypted"`: the auth secret, as the reference). */
export async function storedClientSecret(options: ResolvedOAuthOptions, secret: string, ctx: AuthContext): Promise<string> {
  const method = options.storeClientSecret;
  if (method === "hashed") return sha256Base64Url(secret);
  if (method === "encrypted") return symmetricEncrypt({ key: ctx.secret, data: secret });
  return "hash" in method ? method.hash(secret) : method.encrypt(secret);
}

/** The plain secret behind a readable stored one (`disableJwtPlugin` signs ID tokens with it). */
export async function decryptClientSecret(options: ResolvedOAuthOptions, stored: string, ctx: AuthContext): Promise<string> {
  const method = options.storeClientSecret;
  if (method === "encrypted") return symmetricDecrypt({ key: ctx.secret, data: stored });
  if (typeof method === "object" && "decrypt" in method) return method.decrypt(stored);
  throw new TypeError("oauthProvider: client secrets are not stored readable");
}

/**
 * Whether `presented` (its prefix already stripped) is the secret behind `stored`. Compared
 * in constant time: the hash is not secret, but a timing oracle on it is still no business
 * of a caller's. A stored value that does not decrypt matches nothing.
 */
export async function verifyClientSecret(options: ResolvedOAuthOptions, stored: string, presented: string, ctx: AuthContext): Promise<boolean> {
  const method = options.storeClientSecret;
  if (typeof method === "object" && "hash" in method && method.verify) return method.verify(presented, stored);
  let expected: string;
  let given: string;
  if (method === "hashed") {
    expected = stored;
    given = await sha256Base64Url(presented);
  } else if (typeof method === "object" && "hash" in method) {
    expected = stored;
    given = await method.hash(presented);
  } else {
    try {
      expected = await decryptClientSecret(options, stored, ctx);
    } catch {
      return false;
    }
    given = presented;
  }
  return constantTimeEqual(utf8Encode(given), utf8Encode(expected));
}

/** Removes a configured prefix; `null` when the value lacks it (the token cannot be ours). */
export function stripPrefix(value: string, prefix: string | undefined): string | null {
  if (!prefix) return value;
  return value.startsWith(prefix) ? value.slice(prefix.length) : null;
}
