import type { Account, User } from "../models.js";
import type { InternalAdapterDeps } from "./writes.js";
import { BetterAuthError } from "../../errors/api-error.js";

/** A provider account's identity: `(providerId, accountId)`, unique per account row (spec). */
export interface AccountKey {
  providerId: string;
  accountId: string;
}

/** Who owns a provider account: a user, or nobody because the user row is gone. */
export type AccountOwner =
  { kind: "owned"; user: User; account: Account } | { kind: "orphaned"; account: Account };

/**
 * Look-ups of provider accounts by key. Two rows sharing a key make every answer ambiguous
 * (whose user signs in?), so they raise `BetterAuthError` instead of picking one (spec,
 * Errors: `find_account_by_key`); OAuth sign-in turns that into `internal_server_error`.
 */
export function createAccountKeyOps(deps: InternalAdapterDeps) {
  const { adapter } = deps;
  const byKey = async ({ providerId, accountId }: AccountKey): Promise<Account | null> => {
    // Two rows are enough to know the key is not unique.
    const rows = await adapter.findMany<Account>({
      model: "account",
      where: [
        { field: "providerId", value: providerId },
        { field: "accountId", value: accountId },
      ],
      limit: 2,
    });
    if (rows.length > 1) {
      throw new BetterAuthError(
        `Multiple accounts match the same accountId for provider ${JSON.stringify(providerId)}. Resolve duplicate account identities before continuing.`,
      );
    }
    return rows[0] ?? null;
  };
  return {
    /** The account with this `(providerId, accountId)`, or null; `BetterAuthError` on duplicates. */
    findAccountByKey: byKey,

    /** The account with this key and its user (or `orphaned` when the user row is gone). */
    async findAccountOwnerByKey(key: AccountKey): Promise<AccountOwner | null> {
      const account = await byKey(key);
      if (!account) return null;
      const user = await adapter.findOne<User>({
        model: "user",
        where: [{ field: "id", value: account.userId }],
      });
      return user ? { kind: "owned", user, account } : { kind: "orphaned", account };
    },
  };
}
