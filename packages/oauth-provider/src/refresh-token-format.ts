import type { ResolvedOAuthOptions } from "./options.js";
import { stripPrefix } from "./token-hash.js";

/** The refresh token handed out: the prefix, then `formatRefreshToken.encrypt` of the stored token (with its session id). */
export async function encodeRefreshToken(options: ResolvedOAuthOptions, token: string, sessionId: string | undefined): Promise<string> {
  const format = options.formatRefreshToken;
  return (options.prefix?.refreshToken ?? "") + (format ? await format.encrypt(token, sessionId) : token);
}

/**
 * The stored token behind a presented refresh token, or null: the prefix missing, or a
 * `formatRefreshToken.decrypt` that throws or gives no token (an unknown token, never a 500).
 */
export async function decodeRefreshToken(options: ResolvedOAuthOptions, presented: string): Promise<string | null> {
  const plain = stripPrefix(presented, options.prefix?.refreshToken);
  if (plain === null || !options.formatRefreshToken) return plain;
  try {
    const decoded = await options.formatRefreshToken.decrypt(plain);
    return typeof decoded?.token === "string" && decoded.token ? decoded.token : null;
  } catch {
    return null;
  }
}
