import { sha256 } from "@noble/hashes/sha2.js";
import { base64UrlEncode, generateRandomString, utf8Encode } from "@latchkey/core";
import type { ResolvedConfig } from "./options.js";

/**
 * The stored form of a key: SHA-256 of its UTF-8 bytes, base64url without padding (43
 * characters), as the reference stores it, so a key made by either side verifies on both.
 * Synchronous (@noble/hashes): for a key this short, WebCrypto's job round trip cost more than
 * the hash, on every request authenticated by a key.
 */
export async function hashApiKey(key: string): Promise<string> {
  return base64UrlEncode(sha256(utf8Encode(key)));
}

/** What `key` is looked up by under `config`: its digest, or itself with `disableKeyHashing`. */
export const storedKey = (config: ResolvedConfig, key: string): Promise<string> =>
  config.disableKeyHashing ? Promise.resolve(key) : hashApiKey(key);

/** A new plain key: the prefix, then `defaultKeyLength` letters a-z A-Z (the reference's alphabet). */
export async function generateApiKey(config: ResolvedConfig, prefix: string | undefined): Promise<string> {
  if (config.customKeyGenerator) return config.customKeyGenerator({ length: config.defaultKeyLength, prefix });
  return `${prefix ?? ""}${generateRandomString(config.defaultKeyLength, "a-z", "A-Z")}`;
}
