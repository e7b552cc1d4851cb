import type { EndpointContext } from "../api/context.js";
import { inTransactionContext } from "../api/transaction-context.js";
import type { Adapter } from "../db/adapter.js";
import { APIError } from "../errors/api-error.js";
import {
  signInOAuthUser,
  type OAuthSignInInput,
  type OAuthSignInResult,
  type SelectedOAuthUser,
} from "./sign-in-user.js";

/**
 * Asked first inside an OAuth sign-in's transaction, with the transaction's adapter: the user
 * the identity signs in as (`undefined`: core's rules decide). A throw rolls the sign-in back.
 */
export type SelectUserInTransaction = (database: Adapter) => Promise<SelectedOAuthUser | undefined>;

/** Carries a refused sign-in's result out of the transaction it rolls back. */
class RefusedSignIn extends Error {
  constructor(readonly result: OAuthSignInResult) {
    super("OAuth sign-in refused");
  }
}

/**
 * {@link signInOAuthUser} with `selectUser` and every user, account and session write in one
 * database transaction, with exact account binding: a throw, a refusal (an error code) or a
 * hook rebinding the account or session leaves nothing written. Verification mail is sent after
 * the commit. Sessions must live in the database only: with secondary storage (not
 * transactional) this answers 501 `OAUTH_SIGN_IN_TRANSACTION_REQUIRES_DATABASE_SESSIONS`; an
 * adapter that cannot open a transaction, 501 `OAUTH_SIGN_IN_TRANSACTION_UNAVAILABLE`.
 */
export async function signInOAuthUserInTransaction(
  ctx: EndpointContext,
  input: OAuthSignInInput,
  selectUser: SelectUserInTransaction,
): Promise<OAuthSignInResult> {
  if (ctx.context.options.secondaryStorage)
    throw new APIError(501, {
      code: "OAUTH_SIGN_IN_TRANSACTION_REQUIRES_DATABASE_SESSIONS",
      message: "A transactional OAuth sign-in needs sessions stored in the database only",
    });
  const mail: ((ctx: EndpointContext) => Promise<void>)[] = [];
  let result: OAuthSignInResult;
  let began = false;
  try {
    result = await inTransactionContext(ctx, async (trxCtx, trx) => {
      began = true;
      const selectedUser = await selectUser(trx);
      const signedIn = await signInOAuthUser(trxCtx, {
        ...input,
        selectedUser,
        requireExactAccountBinding: true,
        deferredMail: mail,
      });
      if (signedIn.error !== null) throw new RefusedSignIn(signedIn);
      return signedIn;
    });
  } catch (error) {
    if (error instanceof RefusedSignIn) return error.result;
    // The adapter could not open a transaction (D1 has none): nothing ran, nothing was written.
    if (!began) {
      ctx.context.logger.error("A transactional OAuth sign-in could not open a database transaction", error);
      throw new APIError(501, {
        code: "OAUTH_SIGN_IN_TRANSACTION_UNAVAILABLE",
        message: "A transactional OAuth sign-in needs a database adapter with transactions",
      });
    }
    throw error;
  }
  // Outside the transaction's context: it is over.
  for (const send of mail) await send(ctx);
  return result;
}
