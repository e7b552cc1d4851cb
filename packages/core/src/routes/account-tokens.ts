import type { EndpointContext } from "../api/context.js";
import { endpoint } from "../api/endpoint.js";
import type { Account } from "../db/models.js";
import { APIError } from "../errors/api-error.js";
import { findSocialProvider, type RunnableOAuthProvider } from "../oauth2/providers.js";
import {
  accountSelection,
  resolveAccount,
  resolveUserId,
  selectionInput,
  type AccountSelection,
} from "./account-selection.js";

/** The provider of the account; 400 `PROVIDER_NOT_SUPPORTED` when none is configured under its id. */
async function providerOf(ctx: EndpointContext, account: Account): Promise<RunnableOAuthProvider> {
  const provider = await findSocialProvider(ctx.context, account.providerId);
  if (!provider) {
    throw APIError.from(
      "BAD_REQUEST",
      "PROVIDER_NOT_SUPPORTED",
      `Provider ${account.providerId} is not supported.`,
    );
  }
  return provider;
}

/** The user's account the selection names (401 without a session over HTTP). */
async function selectedAccount(ctx: EndpointContext, selection: AccountSelection): Promise<Account> {
  return resolveAccount(ctx, await resolveUserId(ctx, selection.userId), selection);
}

const tokenRoute = { method: "POST" as const, body: selectionInput, use: [accountSelection("body", true)] };

/** `POST /get-access-token`: the account's access token, refreshed first when about to expire. */
export const getAccessToken = endpoint("/get-access-token", tokenRoute, async (ctx) => {
  const account = await selectedAccount(ctx, ctx.body as AccountSelection);
  const provider = await providerOf(ctx, account);
  return provider.flow.accessToken(ctx, provider, account);
});

/** `POST /refresh-token`: refreshes now; `accountId` in the answer is the account row id. */
export const refreshToken = endpoint("/refresh-token", tokenRoute, async (ctx) => {
  const account = await selectedAccount(ctx, ctx.body as AccountSelection);
  const provider = await providerOf(ctx, account);
  return provider.flow.refreshTokens(ctx, provider, account);
});

/** `GET /account-info?accountId=`: the provider's current profile of the account, and the account. */
export const accountInfo = endpoint(
  "/account-info",
  { method: "GET", query: selectionInput, use: [accountSelection("query", true)] },
  async (ctx) => {
    const account = await selectedAccount(ctx, ctx.query as AccountSelection);
    const provider = await findSocialProvider(ctx.context, account.providerId);
    if (!provider) {
      throw APIError.from(
        "BAD_REQUEST",
        "PROVIDER_NOT_CONFIGURED",
        "Account is not associated with a configured social provider.",
      );
    }
    return provider.flow.accountInfo(ctx, provider, account);
  },
);
