import type { Adapter } from "@latchkey/core";
import { TWO_FACTOR_ERROR_CODES } from "./error-codes.js";
import type { ResolvedTwoFactorOptions } from "./options.js";
import { TWO_FACTOR_MODEL, type TwoFactorRow } from "./schema.js";

type Lockout = ResolvedTwoFactorOptions["lockout"];

/** One claimed attempt: settle it with exactly one of these once the code was judged. */
export interface LockoutAttempt {
  /** Wrong code: the attempt stays counted; reaching the limit locks the user out for the duration. */
  failed(): Promise<void>;
  /** Right code: the counter and the lock are cleared (reference). */
  succeeded(): Promise<void>;
  /** Nothing was judged (an error before the verdict): the attempt is given back. */
  cancel(): Promise<void>;
}

const NOOP: LockoutAttempt = { failed: async () => {}, succeeded: async () => {}, cancel: async () => {} };

const locked = () => TWO_FACTOR_ERROR_CODES.fail("ACCOUNT_TEMPORARILY_LOCKED", "TOO_MANY_REQUESTS");

/** 429 `ACCOUNT_TEMPORARILY_LOCKED` while the row's lock is in force (checked before a challenge attempt is taken, as the reference). */
export function assertNotLocked(row: TwoFactorRow, lockout: Lockout): void {
  if (lockout.enabled && row.lockedUntil && new Date(row.lockedUntil).getTime() > Date.now()) throw locked();
}

/**
 * Counts one sign-in attempt against the per-user lockout before the code is checked, in one
 * guarded update (`failedVerificationCount < max`): concurrent wrong codes can never pass
 * more than `maxFailedAttempts` checks, which a read-then-write counter would allow. A lock
 * is in force while `lockedUntil` is after now (at the instant itself it has ended, as in the
 * reference); an ended lock is cleared first. 429 `ACCOUNT_TEMPORARILY_LOCKED` otherwise.
 */
export async function claimAttempt(adapter: Adapter, row: TwoFactorRow, lockout: Lockout): Promise<LockoutAttempt> {
  if (!lockout.enabled) return NOOP;
  const byId = { field: "id", value: row.id };
  const now = new Date();
  assertNotLocked(row, lockout);
  if (row.lockedUntil) {
    await adapter.incrementOne({
      model: TWO_FACTOR_MODEL,
      where: [byId, { field: "lockedUntil", operator: "lte", value: now }],
      increment: {},
      set: { failedVerificationCount: 0, lockedUntil: null },
    });
  }
  // NULL (a row older than the column) cannot be compared or incremented: start it at 0.
  if (row.failedVerificationCount === null || row.failedVerificationCount === undefined) {
    await adapter.updateMany({
      model: TWO_FACTOR_MODEL,
      where: [byId, { field: "failedVerificationCount", value: null }],
      update: { failedVerificationCount: 0 },
    });
  }
  const lock = () =>
    adapter.updateMany({
      model: TWO_FACTOR_MODEL,
      where: [byId, { field: "failedVerificationCount", operator: "gte", value: lockout.maxFailedAttempts }],
      update: { lockedUntil: new Date(Date.now() + lockout.durationMs) },
    });
  const claimed = await adapter.incrementOne<TwoFactorRow>({
    model: TWO_FACTOR_MODEL,
    where: [byId, { field: "failedVerificationCount", operator: "lt", value: lockout.maxFailedAttempts }],
    increment: { failedVerificationCount: 1 },
  });
  if (!claimed) {
    // The limit was reached by attempts running beside this one: make sure the lock is set
    // (only where none is: an earlier lock keeps its end), then refuse.
    await adapter.updateMany({
      model: TWO_FACTOR_MODEL,
      where: [
        byId,
        { field: "failedVerificationCount", operator: "gte", value: lockout.maxFailedAttempts },
        { field: "lockedUntil", value: null },
      ],
      update: { lockedUntil: new Date(Date.now() + lockout.durationMs) },
    });
    throw locked();
  }
  return {
    failed: async () => {
      if ((claimed.failedVerificationCount ?? 0) >= lockout.maxFailedAttempts) await lock();
    },
    succeeded: async () => {
      await adapter.update({ model: TWO_FACTOR_MODEL, where: [byId], update: { failedVerificationCount: 0, lockedUntil: null } });
    },
    cancel: async () => {
      await adapter.incrementOne({
        model: TWO_FACTOR_MODEL,
        where: [byId, { field: "failedVerificationCount", operator: "gt", value: 0 }],
        increment: { failedVerificationCount: -1 },
      });
    },
  };
}
