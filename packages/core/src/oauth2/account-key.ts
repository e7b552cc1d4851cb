import { BetterAuthError } from "../errors/api-error.js";
import type { AccountKey } from "../db/internal/accounts-by-key.js";
import type { OAuth2Tokens, OAuthProvider } from "./types.js";

/**
 * The account key a provider response establishes: `(provider.id, accountSubject(...))`. The
 * subject is read from the raw profile and verified tokens, never from the mapped user, so a
 * profile mapping cannot redefine which account signs in. A missing or empty subject (or
 * `"undefined"`/`"null"` from a careless `String()`) is refused rather than stored, where it
 * would merge every such user into one account.
 */
export async function resolveAccountKey(
  provider: OAuthProvider,
  tokens: OAuth2Tokens,
  profile: Record<string, unknown>,
): Promise<AccountKey> {
  const subject = await provider.accountSubject({ tokens, profile });
  const accountId = String(subject);
  if (
    (typeof subject !== "string" && typeof subject !== "number") ||
    (typeof subject === "number" && !Number.isFinite(subject)) ||
    accountId.trim() === "" ||
    accountId === "undefined" ||
    accountId === "null"
  ) {
    throw new BetterAuthError("OAUTH_ACCOUNT_SUBJECT_INVALID");
  }
  return { providerId: provider.id, accountId };
}
