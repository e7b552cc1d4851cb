import { base64UrlEncode, utf8Encode } from "../crypto/encoding.js";
import { generateRandomString } from "../crypto/random.js";

/**
 * A PKCE `code_verifier` (RFC 7636 §4.1): 128 characters, the maximum the RFC allows, from the
 * 64-character URL-safe set, which lies inside its "unreserved" alphabet. 128 × 6 bits is far
 * above the 256 bits of entropy §7.1 asks for. Same length and alphabet as the reference.
 */
export function generateCodeVerifier(): string {
  return generateRandomString(128);
}

/**
 * The `S256` code challenge of a verifier (RFC 7636 §4.2):
 * `BASE64URL-ENCODE(SHA256(ASCII(code_verifier)))`, unpadded. `plain` is never used: §4.2
 * allows it only when S256 is impossible, which Web Crypto rules out.
 */
export async function generateCodeChallenge(codeVerifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", utf8Encode(codeVerifier));
  return base64UrlEncode(new Uint8Array(digest));
}
