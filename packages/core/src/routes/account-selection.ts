import * as v from "valibot";
import type { EndpointContext } from "../api/context.js";
import type { EndpointMiddleware } from "../api/endpoint.js";
import type { Account } from "../db/models.js";
import { APIError } from "../errors/api-error.js";
import { fail } from "../errors/index.js";
import { getSessionFromRequest } from "../session/session-middleware.js";

/** How an account route names its account: the account row id, or (legacy) a provider id. */
export interface AccountSelection {
  accountId?: string;
  /** Only with `account.legacyAccountSelection`. */
  providerId?: string;
  useAccountCookie?: true;
  /** Server calls without a session name the user. */
  userId?: string;
}

/**
 * The input schema of the selection: any object passes here and {@link accountSelection}
 * decides, so that a `providerId` body gets its own answer (`INVALID_BODY`) rather than a
 * generic validation error. A non-object is the reference's `[body] Invalid input`.
 */
export const selectionInput = v.pipe(
  v.unknown(),
  v.check((value) => typeof value === "object" && value !== null && !Array.isArray(value), "Invalid input"),
);

const invalid = (where: string, message = "Invalid input") =>
  new APIError(400, { message: `[${where}] ${message}`, code: "VALIDATION_ERROR" });

const str = (value: unknown): value is string => typeof value === "string";

/**
 * Reads the selection of `/get-access-token`, `/refresh-token`, `/account-info` (`strict`:
 * the reference's strict union `{accountId, userId?} | {useAccountCookie: true, userId?}`)
 * and `/unlink-account` (`{accountId}`). A `providerId` is refused with 400 `INVALID_BODY`
 * unless `account.legacyAccountSelection` (spec, rules for account routes 1-2): a provider
 * id is ambiguous once a user links two accounts of one provider.
 */
export function accountSelection(where: "body" | "query", strict: boolean): EndpointMiddleware {
  return (ctx) => {
    const input = ((where === "body" ? ctx.body : ctx.query) ?? {}) as Record<string, unknown>;
    const legacy = ctx.context.options.account?.legacyAccountSelection === true;
    let selection: AccountSelection;
    if ("providerId" in input) {
      if (!legacy) {
        throw new APIError("BAD_REQUEST", {
          code: "INVALID_BODY",
          message:
            "Select the account by accountId (the account id from /list-accounts); providerId is not accepted",
        });
      }
      const { providerId, accountId, userId } = input;
      if (
        !str(providerId) ||
        (accountId !== undefined && !str(accountId)) ||
        (userId !== undefined && !str(userId))
      ) {
        throw invalid(where);
      }
      selection = { providerId, accountId, userId };
    } else if (!strict) {
      if (!str(input.accountId)) {
        const got =
          input.accountId === null
            ? "null"
            : Array.isArray(input.accountId)
              ? "array"
              : typeof input.accountId;
        throw invalid(`${where}.accountId`, `Invalid input: expected string, received ${got}`);
      }
      selection = { accountId: input.accountId };
    } else {
      // A query carries strings: `useAccountCookie=true` is the query form of `true`.
      const cookie =
        input.useAccountCookie === true || (where === "query" && input.useAccountCookie === "true");
      const key = cookie ? "useAccountCookie" : "accountId";
      if ((!cookie && !str(input.accountId)) || (input.userId !== undefined && !str(input.userId)))
        throw invalid(where);
      const extra = Object.keys(input).filter((k) => k !== key && k !== "userId");
      if (extra.length) {
        const list = extra.map((k) => JSON.stringify(k)).join(", ");
        throw invalid(where, `Unrecognized key${extra.length > 1 ? "s" : ""}: ${list}`);
      }
      selection = cookie
        ? { useAccountCookie: true, userId: input.userId as string | undefined }
        : { accountId: input.accountId as string, userId: input.userId as string | undefined };
    }
    if (where === "body") ctx.body = selection;
    else ctx.query = selection;
  };
}

/**
 * The user an account-token route acts for. An HTTP caller must have a session (401 with an
 * empty body otherwise, as the reference), read from storage rather than the cache cookie so
 * a revoked session cannot mint provider tokens; a server call without one names `userId`.
 */
export async function resolveUserId(ctx: EndpointContext, userId: string | undefined): Promise<string> {
  const session = await getSessionFromRequest(ctx, { disableCookieCache: true });
  const fromHTTP = ctx.request !== undefined || [...ctx.headers.keys()].length > 0;
  if (!session && fromHTTP) throw new APIError("UNAUTHORIZED");
  const resolved = session?.user.id || userId;
  if (!resolved) {
    throw new APIError("BAD_REQUEST", {
      message: "Either userId or session is required",
      code: "USER_ID_OR_SESSION_REQUIRED",
    });
  }
  return resolved;
}

/**
 * The user's account the selection names: by row id only (or, legacy, by provider id).
 * `useAccountCookie` finds nothing: no account cookie is ever stored (spec, rules 3).
 */
export async function resolveAccount(
  ctx: EndpointContext,
  userId: string,
  selection: AccountSelection,
): Promise<Account> {
  if (selection.useAccountCookie) throw fail("BAD_REQUEST", "ACCOUNT_NOT_FOUND");
  const accounts = await ctx.context.internalAdapter.findAccounts(userId);
  const { accountId, providerId } = selection;
  const account = providerId
    ? accounts.find(
        (a) => a.providerId === providerId && (!accountId || a.id === accountId || a.accountId === accountId),
      )
    : accounts.find((a) => a.id === accountId);
  if (!account) throw fail("BAD_REQUEST", "ACCOUNT_NOT_FOUND");
  return account;
}
