import type { DatabaseHookContext } from "../database-hooks.js";
import type { User } from "../models.js";
import type { Writes } from "./writes.js";

/** The operations the revocation needs from the user and session stores. */
interface Stores {
  findUserById(id: string): Promise<User | null>;
  deleteUserSessionsCreatedUntil(userId: string, until: Date, ctx?: DatabaseHookContext): Promise<void>;
  refreshed<T extends User | null>(user: T): Promise<T>;
}

/**
 * Builds `revokeUnprovenAccountAccess(userId, ctx?)`: the spec's transition "user email
 * unverified → email verified" for passwordless proofs (magic link, email OTP). A user row
 * with an unverified email carries no proof that its password, OAuth links or open sessions
 * belong to the mailbox owner, so every linked account and every session is deleted first and
 * only then is the email marked verified. Returns the updated user (null when there is none);
 * an already verified user is returned untouched. Sessions opened after this call read the
 * user are kept: they belong to a concurrent promotion of the same user (two links or codes
 * redeemed at once), which proved the mailbox too and must not lose the session it answers.
 */
export function createUnprovenAccessRevoker(writes: Writes, stores: Stores) {
  return async function revokeUnprovenAccountAccess(userId: string, ctx?: DatabaseHookContext): Promise<User | null> {
    const readAt = new Date();
    const user = await stores.findUserById(userId);
    if (!user || user.emailVerified) return user;
    const byUser = [{ field: "userId", value: userId }];
    // spec: States and transitions, "user email unverified": links and sessions go first.
    await writes.deleteMany("account", byUser, ctx);
    await stores.deleteUserSessionsCreatedUntil(userId, readAt, ctx);
    // Guarded on the old value, so a concurrent promotion of the same user updates once.
    await writes.updateMany(
      "user",
      [
        { field: "id", value: userId },
        { field: "emailVerified", value: false },
      ],
      { emailVerified: true, updatedAt: new Date() },
      ctx,
    );
    return stores.refreshed(await stores.findUserById(userId));
  };
}
