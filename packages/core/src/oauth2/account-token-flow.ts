import type { EndpointContext } from "../api/context.js";
import type { Account } from "../db/models.js";
import { APIError } from "../errors/api-error.js";
import { fail } from "../errors/index.js";
import { parseStoredScopes } from "./scopes.js";
import { decryptOAuthToken, encryptOAuthToken } from "./token-storage.js";
import type { OAuth2Tokens, OAuth2UserInfo, OAuthProvider } from "./types.js";

/** Refresh when the access token has less than this left (reference: 5 s). */
const REFRESH_MARGIN_MS = 5_000;

/** `/get-access-token`'s answer. */
export interface AccessTokenResult {
  accessToken: string;
  accessTokenExpiresAt: Date | undefined;
  scopes: string[];
  idToken: string | undefined;
}

/** `/refresh-token`'s answer (`accountId` is the account row id). */
export interface RefreshResult {
  accessToken: string | undefined;
  refreshToken: string;
  accessTokenExpiresAt: Date | undefined;
  refreshTokenExpiresAt: Date | null | undefined;
  scope: string | null | undefined;
  idToken: string | null | undefined;
  providerId: string;
  accountId: string;
}

/** `/account-info`'s answer: the provider's current profile and the account. */
export interface AccountInfoResult {
  user: OAuth2UserInfo;
  data: Record<string, unknown>;
  account: { id: string; providerId: string; accountId: string };
}

/** The stored token fields after a refresh: rotated refresh token kept or replaced (RFC 6749 §6), scope untouched. */
async function refreshedRow(
  ctx: EndpointContext,
  account: Account,
  tokens: OAuth2Tokens,
): Promise<Partial<Account>> {
  const row: Partial<Account> = {
    accessToken: await encryptOAuthToken(tokens.accessToken, ctx.context),
    accessTokenExpiresAt: tokens.accessTokenExpiresAt,
    refreshToken: tokens.refreshToken
      ? await encryptOAuthToken(tokens.refreshToken, ctx.context)
      : account.refreshToken,
    refreshTokenExpiresAt: tokens.refreshTokenExpiresAt ?? account.refreshTokenExpiresAt,
    idToken: tokens.idToken || account.idToken,
  };
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== undefined));
}

type Refreshable = OAuthProvider & { refreshAccessToken: NonNullable<OAuthProvider["refreshAccessToken"]> };

/** Refreshes with the account's stored refresh token and stores the answer. */
async function refreshAndStore(ctx: EndpointContext, provider: Refreshable, account: Account) {
  const stored = (await decryptOAuthToken(account.refreshToken ?? "", ctx.context)) ?? "";
  const tokens = await provider.refreshAccessToken(stored, { headers: ctx.headers, request: ctx.request });
  const row = await refreshedRow(ctx, account, tokens);
  const updated = await ctx.context.internalAdapter.updateAccount(account.id, row, ctx);
  return { stored, tokens, row, updated };
}

/**
 * A failed token operation: logged by the error's kind only (a provider's message may carry a
 * token), answered 400 with `code` and `message`.
 */
function tokenFailure(
  ctx: EndpointContext,
  error: unknown,
  code: "FAILED_TO_GET_ACCESS_TOKEN" | "FAILED_TO_REFRESH_ACCESS_TOKEN",
  message: string,
): never {
  ctx.context.logger.error(message, error instanceof Error ? error.name : typeof error);
  throw APIError.from("BAD_REQUEST", code, message);
}

/**
 * A usable access token for the account: the stored one, or (when it expires within 5 s and
 * a refresh token exists) a refreshed one, stored back. Any failure is 400
 * `FAILED_TO_GET_ACCESS_TOKEN`; neither tokens nor provider errors are echoed or logged.
 */
export async function validAccessToken(
  ctx: EndpointContext,
  provider: OAuthProvider,
  account: Account,
): Promise<AccessTokenResult> {
  try {
    let fresh: OAuth2Tokens | null = null;
    const expiresAt = account.accessTokenExpiresAt
      ? new Date(account.accessTokenExpiresAt).getTime()
      : undefined;
    if (
      account.refreshToken &&
      expiresAt !== undefined &&
      expiresAt - Date.now() < REFRESH_MARGIN_MS &&
      provider.refreshAccessToken
    ) {
      fresh = (await refreshAndStore(ctx, provider as Refreshable, account)).tokens;
    }
    return {
      accessToken:
        fresh?.accessToken ?? (await decryptOAuthToken(account.accessToken ?? "", ctx.context)) ?? "",
      accessTokenExpiresAt: fresh?.accessTokenExpiresAt ?? account.accessTokenExpiresAt ?? undefined,
      scopes: parseStoredScopes(account.scope),
      idToken: fresh?.idToken ?? account.idToken ?? undefined,
    };
  } catch (error) {
    tokenFailure(ctx, error, "FAILED_TO_GET_ACCESS_TOKEN", "Failed to get a valid access token");
  }
}

/**
 * Refreshes the account's tokens now: 400 `TOKEN_REFRESH_NOT_SUPPORTED` for a provider that
 * cannot, `REFRESH_TOKEN_NOT_FOUND` without a stored refresh token. The stored scope is not
 * rewritten: a refresh answer may be narrower (spec, account `scope`). Any failure of the
 * refresh itself is 400 `FAILED_TO_REFRESH_ACCESS_TOKEN`.
 */
export async function refreshAccountTokens(
  ctx: EndpointContext,
  provider: OAuthProvider,
  account: Account,
): Promise<RefreshResult> {
  if (!provider.refreshAccessToken) {
    throw APIError.from(
      "BAD_REQUEST",
      "TOKEN_REFRESH_NOT_SUPPORTED",
      `Provider ${account.providerId} does not support token refreshing.`,
    );
  }
  if (!account.refreshToken)
    throw APIError.from("BAD_REQUEST", "REFRESH_TOKEN_NOT_FOUND", "Refresh token not found");
  try {
    const { stored, tokens, row, updated } = await refreshAndStore(ctx, provider as Refreshable, account);
    return {
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken ?? stored,
      accessTokenExpiresAt: tokens.accessTokenExpiresAt,
      refreshTokenExpiresAt: row.refreshTokenExpiresAt,
      scope: updated?.scope ?? account.scope,
      idToken: tokens.idToken || account.idToken,
      providerId: account.providerId,
      accountId: account.id,
    };
  } catch (error) {
    tokenFailure(ctx, error, "FAILED_TO_REFRESH_ACCESS_TOKEN", "Failed to refresh access token");
  }
}

/**
 * The provider's current profile of the account, read with a valid (refreshed when needed)
 * access token: 400 `ACCESS_TOKEN_NOT_FOUND` without one, 401 `FAILED_TO_GET_USER_INFO` when
 * the provider does not answer.
 */
export async function readAccountInfo(
  ctx: EndpointContext,
  provider: OAuthProvider,
  account: Account,
): Promise<AccountInfoResult> {
  const tokens = await validAccessToken(ctx, provider, account);
  if (!tokens.accessToken)
    throw APIError.from("BAD_REQUEST", "ACCESS_TOKEN_NOT_FOUND", "Access token not found");
  const info = await provider.getUserInfo({ ...tokens }).catch(() => null);
  if (!info) throw fail("UNAUTHORIZED", "FAILED_TO_GET_USER_INFO");
  return {
    ...info,
    account: { id: account.id, providerId: account.providerId, accountId: account.accountId },
  };
}
