import type { Adapter, Row, Where } from "./adapter.js";
import { BetterAuthError } from "../errors/api-error.js";
import { createWrites, type InternalAdapterDeps } from "./internal/writes.js";
import { createUserOps } from "./internal/users.js";
import { createSessionOps } from "./internal/sessions.js";
import { createVerificationOps } from "./internal/verifications.js";
import { createAccountKeyOps } from "./internal/accounts-by-key.js";
import { createUnprovenAccessRevoker } from "./internal/unproven-access.js";
import { cachedSessionsOf } from "./internal/sessions.js";

export type { InternalAdapterDeps } from "./internal/writes.js";
export type { SessionClient, SessionWithUser } from "./internal/sessions.js";

/**
 * Model-level storage operations core routes and plugins use (the reference's internal
 * adapter): ids, defaults and database hooks are applied here, so adapters only store and load.
 */
export function createInternalAdapter(deps: InternalAdapterDeps & { verification?: { disableCleanup?: boolean } }): InternalAdapter {
  return {
    ...internalOperations(deps),
    boundTo: (adapter) => createInternalAdapter({ ...deps, adapter }),
  };
}

function internalOperations(deps: InternalAdapterDeps & { verification?: { disableCleanup?: boolean } }) {
  const writes = createWrites(deps);
  const users = createUserOps(deps, writes);
  const sessions = createSessionOps(deps, writes);
  const { refreshed } = cachedSessionsOf(deps);
  return {
    ...writes,
    ...users,
    ...sessions,
    ...createVerificationOps(deps, writes, deps.verification ?? {}),
    ...createAccountKeyOps(deps),
    revokeUnprovenAccountAccess: createUnprovenAccessRevoker(writes, {
      findUserById: users.findUserById,
      deleteUserSessionsCreatedUntil: sessions.deleteUserSessionsCreatedUntil,
      refreshed,
    }),

    /** Atomic guarded counter update; an empty change is a programming error (spec: Errors). */
    incrementOne<T extends Row = Row>(args: { model: string; where: Where[]; increment: Record<string, number>; set?: Row }) {
      if (!Object.keys(args.increment).length && !Object.keys(args.set ?? {}).length) {
        throw new BetterAuthError("incrementOne needs at least one field in `increment` or `set`.");
      }
      return deps.adapter.incrementOne<T>(args);
    },
  };
}

export type InternalAdapter = ReturnType<typeof internalOperations> & {
  /**
   * The same operations (schema, hooks, ids, stores) writing through `adapter` instead, e.g.
   * the adapter a `transaction(fn)` hands to `fn`, so they join that transaction.
   */
  boundTo(adapter: Adapter): InternalAdapter;
};
