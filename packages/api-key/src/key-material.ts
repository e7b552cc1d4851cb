import { base64UrlEncode, generateRandomString, utf8Encode } from "@latchkey/core";
import type { ResolvedConfig } from "./options.js";

/**
 * The stored form of a key: SHA-256 of its UTF-8 bytes, base64url without padding (43
 * characters), as the reference stores it, so a key made by either side verifies on both.
 */
export async function hashApiKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", utf8Encode(key));
  return base64UrlEncode(new Uint8Array(digest));
}

/** What `key` is looked up by under `config`: its digest, or itself with `disableKeyHashing`. */
export const storedKey = (config: ResolvedConfig, key: string): Promise<string> =>
  config.disableKeyHashing ? Promise.resolve(key) : hashApiKey(key);

/** A new plain key: the prefix, then `defaultKeyLength` letters a-z A-Z (the reference's alphabet). */
export async function generateApiKey(config: ResolvedConfig, prefix: string | undefined): Promise<string> {
  if (config.customKeyGenerator) return config.customKeyGenerator({ length: config.defaultKeyLength, prefix });
  return `${prefix ?? ""}${generateRandomString(config.defaultKeyLength, "a-z", "A-Z")}`;
}
