import { base64UrlEncode, generateRandomString, utf8Encode } from "@latchkey/core";
import type { ResolvedMagicLinkOptions } from "./options.js";

/** SHA-256 of the token as unpadded base64url: the reference's "hashed" identifier form. */
export async function hashToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", utf8Encode(token));
  return base64UrlEncode(new Uint8Array(digest));
}

/** A new token: the app's `generateToken`, else 32 random letters (the reference's alphabet). */
export async function newToken(options: ResolvedMagicLinkOptions, email: string): Promise<string> {
  return options.generateToken ? await options.generateToken(email) : generateRandomString(32, "a-z", "A-Z");
}

/**
 * The verification row's `identifier` for a token. Hashed forms mean a leaked table does not
 * hand out working links; the same function runs on issue and on redemption.
 */
export async function storedToken(options: ResolvedMagicLinkOptions, token: string): Promise<string> {
  const { storeToken } = options;
  if (storeToken === "hashed") return hashToken(token);
  if (typeof storeToken === "object") return storeToken.hash(token);
  return token;
}
