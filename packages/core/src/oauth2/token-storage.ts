import type { AuthContext } from "../context.js";
import type { Account } from "../db/models.js";
import { symmetricDecrypt, symmetricEncrypt } from "../crypto/symmetric.js";

/**
 * Whether a stored token looks like `symmetricEncrypt` output: the `$ba$` envelope, or
 * even-length hex. Tokens written before `encryptOAuthTokens` was turned on are read as they
 * are (reference core.md §5.4: migration tolerance).
 */
export function isLikelyEncrypted(token: string): boolean {
  return token.startsWith("$ba$") || (token.length % 2 === 0 && /^[0-9a-f]+$/i.test(token));
}

/**
 * An access or refresh token as it is stored: XChaCha20-Poly1305 under the secret when
 * `account.encryptOAuthTokens` is on (same format as the reference, so either side reads
 * the other's rows), else as is. ID tokens are never passed here: they stay plain.
 */
export async function encryptOAuthToken(
  token: string | undefined | null,
  ctx: AuthContext,
): Promise<string | undefined> {
  if (!token) return token ?? undefined;
  if (!ctx.options.account?.encryptOAuthTokens) return token;
  return symmetricEncrypt({ key: ctx.secret, data: token });
}

/** The plain token of a stored value; throws when an encrypted-looking value does not decrypt. */
export async function decryptOAuthToken(
  token: string | undefined | null,
  ctx: AuthContext,
): Promise<string | undefined> {
  if (!token) return token ?? undefined;
  if (!ctx.options.account?.encryptOAuthTokens || !isLikelyEncrypted(token)) return token;
  return symmetricDecrypt({ key: ctx.secret, data: token });
}

/** Stored form of a provider's tokens: access and refresh encrypted when configured, the ID token plain; unset ones left out. */
export async function storedTokens(
  ctx: AuthContext,
  account: {
    accessToken?: string | undefined;
    refreshToken?: string | undefined;
    idToken?: string | undefined;
    accessTokenExpiresAt?: Date | undefined;
    refreshTokenExpiresAt?: Date | undefined;
  },
): Promise<Partial<Account>> {
  const data: Partial<Account> = {
    accessToken: await encryptOAuthToken(account.accessToken, ctx),
    refreshToken: await encryptOAuthToken(account.refreshToken, ctx),
    idToken: account.idToken,
    accessTokenExpiresAt: account.accessTokenExpiresAt,
    refreshTokenExpiresAt: account.refreshTokenExpiresAt,
  };
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
}
