import type { Adapter, Row, Where } from "@latchkey/core";
import { TWO_FACTOR_MODEL, type TwoFactorRow } from "./schema.js";

/** The user's `twoFactor` row, or null. */
export const findTwoFactorRow = (adapter: Adapter, userId: string): Promise<TwoFactorRow | null> =>
  adapter.findOne<TwoFactorRow>({ model: TWO_FACTOR_MODEL, where: [{ field: "userId", value: userId }] });

/**
 * The row is verified unless it says `false`: rows the reference wrote before the column
 * existed hold NULL, and the column defaults to true.
 */
export const isVerified = (row: TwoFactorRow): boolean => row.verified !== false;

/** Writes `set` on `row` only while `guard` still holds, in one statement; false when it no longer did. */
async function setIf(adapter: Adapter, row: TwoFactorRow, guard: Where, set: Row): Promise<boolean> {
  const where: Where[] = [{ field: "id", value: row.id }, guard];
  return (await adapter.incrementOne({ model: TWO_FACTOR_MODEL, where, increment: {}, set })) !== null;
}

/**
 * Replaces the backup-code list only if it is still `expected`: of concurrent redemptions of
 * one stored list exactly one wins (a compare-and-set on the stored text, as the reference).
 */
export const swapBackupCodes = (adapter: Adapter, row: TwoFactorRow, expected: string, next: string): Promise<boolean> =>
  setIf(adapter, row, { field: "backupCodes", value: expected }, { backupCodes: next });

/**
 * Restarts an unverified enrollment in place: the new secret and codes are written only while
 * the row is still unverified, so an enrollment confirmed meanwhile is never overwritten.
 */
export const restartEnrollment = (
  adapter: Adapter,
  row: TwoFactorRow,
  data: { secret: string; backupCodes: string; verified: boolean },
): Promise<boolean> => setIf(adapter, row, { field: "verified", value: false }, data);
