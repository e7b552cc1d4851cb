import type { EndpointContext } from "../api/context.js";
import { endpoint } from "../api/endpoint.js";
import type { Account } from "../db/models.js";
import { APIError } from "../errors/api-error.js";
import { fail } from "../errors/index.js";
import { findSocialProvider } from "../oauth2/providers.js";
import { decryptOAuthToken, encryptOAuthToken, parseStoredScopes } from "../oauth2/token-storage.js";
import type { OAuth2Tokens, OAuthProvider } from "../oauth2/types.js";
import {
  accountSelection,
  resolveAccount,
  resolveUserId,
  selectionInput,
  type AccountSelection,
} from "./account-selection.js";

/** Refresh when the access token has less than this left (reference: 5 s). */
const REFRESH_MARGIN_MS = 5_000;

const bad = (code: string, message: string) => new APIError("BAD_REQUEST", { code, message });

async function providerOf(ctx: EndpointContext, account: Account): Promise<OAuthProvider> {
  const provider = await findSocialProvider(ctx.context, account.providerId);
  if (!provider) throw bad("PROVIDER_NOT_SUPPORTED", `Provider ${account.providerId} is not supported.`);
  return provider;
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

/**
 * A usable access token for the account: the stored one, or (when it expires within 5 s and
 * a refresh token exists) a refreshed one, stored back. Any failure is 400
 * `FAILED_TO_GET_ACCESS_TOKEN` (tokens and provider errors are not echoed).
 */
async function validAccessToken(ctx: EndpointContext, account: Account) {
  const provider = await providerOf(ctx, account);
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
      const refreshToken = (await decryptOAuthToken(account.refreshToken, ctx.context)) ?? "";
      fresh = await provider.refreshAccessToken(refreshToken, { headers: ctx.headers, request: ctx.request });
      await ctx.context.internalAdapter.updateAccount(
        account.id,
        await refreshedRow(ctx, account, fresh),
        ctx,
      );
    }
    return {
      accessToken:
        fresh?.accessToken ?? (await decryptOAuthToken(account.accessToken ?? "", ctx.context)) ?? "",
      accessTokenExpiresAt: fresh?.accessTokenExpiresAt ?? account.accessTokenExpiresAt ?? undefined,
      scopes: parseStoredScopes(account.scope),
      idToken: fresh?.idToken ?? account.idToken ?? undefined,
    };
  } catch (error) {
    ctx.context.logger.error(
      "Failed to get a valid access token",
      error instanceof Error ? error.name : typeof error,
    );
    throw bad("FAILED_TO_GET_ACCESS_TOKEN", "Failed to get a valid access token");
  }
}

const tokenRoute = { method: "POST" as const, body: selectionInput, use: [accountSelection("body", true)] };

/** `POST /get-access-token`: the account's access token, refreshed first when about to expire. */
export const getAccessToken = endpoint("/get-access-token", tokenRoute, async (ctx) => {
  const selection = ctx.body as AccountSelection;
  const account = await resolveAccount(ctx, await resolveUserId(ctx, selection.userId), selection);
  return validAccessToken(ctx, account);
});

/**
 * `POST /refresh-token`: refreshes now. The stored scope is not rewritten (a refresh answer
 * may be narrower; spec, account `scope`); `accountId` in the answer is the account row id.
 */
export const refreshToken = endpoint("/refresh-token", tokenRoute, async (ctx) => {
  const selection = ctx.body as AccountSelection;
  const account = await resolveAccount(ctx, await resolveUserId(ctx, selection.userId), selection);
  const provider = await providerOf(ctx, account);
  if (!provider.refreshAccessToken) {
    throw bad(
      "TOKEN_REFRESH_NOT_SUPPORTED",
      `Provider ${account.providerId} does not support token refreshing.`,
    );
  }
  if (!account.refreshToken) throw bad("REFRESH_TOKEN_NOT_FOUND", "Refresh token not found");
  try {
    const stored = (await decryptOAuthToken(account.refreshToken, ctx.context)) ?? "";
    const tokens = await provider.refreshAccessToken(stored, { headers: ctx.headers, request: ctx.request });
    const row = await refreshedRow(ctx, account, tokens);
    const updated = await ctx.context.internalAdapter.updateAccount(account.id, row, ctx);
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
    ctx.context.logger.error(
      "Failed to refresh access token",
      error instanceof Error ? error.name : typeof error,
    );
    throw bad("FAILED_TO_REFRESH_ACCESS_TOKEN", "Failed to refresh access token");
  }
});

/** `GET /account-info?accountId=`: the provider's current profile of the account, and the account. */
export const accountInfo = endpoint(
  "/account-info",
  { method: "GET", query: selectionInput, use: [accountSelection("query", true)] },
  async (ctx) => {
    const selection = ctx.query as AccountSelection;
    const account = await resolveAccount(ctx, await resolveUserId(ctx, selection.userId), selection);
    if (!(await findSocialProvider(ctx.context, account.providerId))) {
      throw bad("PROVIDER_NOT_CONFIGURED", "Account is not associated with a configured social provider.");
    }
    const provider = await providerOf(ctx, account);
    const tokens = await validAccessToken(ctx, account);
    if (!tokens.accessToken) throw bad("ACCESS_TOKEN_NOT_FOUND", "Access token not found");
    const info = await provider.getUserInfo({ ...tokens }).catch(() => null);
    if (!info) throw fail("UNAUTHORIZED", "FAILED_TO_GET_USER_INFO");
    return {
      ...info,
      account: { id: account.id, providerId: account.providerId, accountId: account.accountId },
    };
  },
);
