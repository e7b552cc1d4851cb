import * as v from "valibot";
import { endpoint } from "../api/endpoint.js";
import { toOutput } from "../db/output.js";
import { fail } from "../errors/index.js";
import { parseStoredScopes } from "../oauth2/scopes.js";
import { freshSessionMiddleware, sessionMiddleware } from "../session/session-middleware.js";
import { accountSelection, resolveAccount, type AccountSelection } from "./account-selection.js";

/** Never sent to clients, whatever the schema's `returned` settings say (reference `parseAccountOutput`). */
const SECRET_FIELDS = [
  "accessToken",
  "refreshToken",
  "idToken",
  "accessTokenExpiresAt",
  "refreshTokenExpiresAt",
  "password",
];

/**
 * `GET /list-accounts`: the user's accounts, each with its row `id` (what the account routes
 * take as `accountId`), `providerId`, `accountId`, and `scopes` from the stored `scope`
 * (comma- or, for 1.0 rows, space-separated). Tokens and passwords are never included.
 */
export const listAccounts = endpoint(
  "/list-accounts",
  { method: "GET", use: [sessionMiddleware] },
  async (ctx) => {
    const auth = ctx.context;
    const accounts = await auth.internalAdapter.findAccounts(auth.session.user.id);
    return accounts.map((account) => {
      const { scope, ...rest } = toOutput(auth.schema, "account", account) as Record<string, unknown>;
      for (const field of SECRET_FIELDS) delete rest[field];
      return { ...rest, scopes: parseStoredScopes(typeof scope === "string" ? scope : null) };
    });
  },
);

/**
 * `POST /unlink-account`: removes one of the user's accounts, chosen by its row id. Needs a
 * fresh session (403 `SESSION_NOT_FRESH`): unlinking is how a thief would lock the owner out.
 * The last account stays unless `accountLinking.allowUnlinkingAll` (400
 * `FAILED_TO_UNLINK_LAST_ACCOUNT`); another user's account is 400 `ACCOUNT_NOT_FOUND`.
 */
export const unlinkAccount = endpoint(
  "/unlink-account",
  { method: "POST", body: v.looseObject({}), use: [accountSelection("body", false), freshSessionMiddleware] },
  async (ctx) => {
    const auth = ctx.context;
    const userId = auth.session.user.id;
    const accounts = await auth.internalAdapter.findAccounts(userId);
    if (accounts.length === 1 && !auth.options.account?.accountLinking?.allowUnlinkingAll) {
      throw fail("BAD_REQUEST", "FAILED_TO_UNLINK_LAST_ACCOUNT");
    }
    const account = await resolveAccount(ctx, userId, ctx.body as AccountSelection);
    await auth.internalAdapter.deleteAccount(account.id, ctx);
    return { status: true };
  },
);
