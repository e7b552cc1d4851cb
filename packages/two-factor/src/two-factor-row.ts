import type { Adapter } from "@latchkey/core";
import { TWO_FACTOR_MODEL, type TwoFactorRow } from "./schema.js";

/** The user's `twoFactor` row, or null. */
export const findTwoFactorRow = (adapter: Adapter, userId: string): Promise<TwoFactorRow | null> =>
  adapter.findOne<TwoFactorRow>({ model: TWO_FACTOR_MODEL, where: [{ field: "userId", value: userId }] });

/**
 * The row is verified unless it says `false`: rows the reference wrote before the column
 * existed hold NULL, and the column defaults to true.
 */
export const isVerified = (row: TwoFactorRow): boolean => row.verified !== false;

/**
 * Replaces the backup-code list only if it is still `expected`: of concurrent redemptions of
 * one stored list exactly one wins (a compare-and-set on the stored text, as the reference).
 */
export async function swapBackupCodes(adapter: Adapter, row: TwoFactorRow, expected: string, next: string): Promise<boolean> {
  const updated = await adapter.incrementOne({
    model: TWO_FACTOR_MODEL,
    where: [
      { field: "id", value: row.id },
      { field: "backupCodes", value: expected },
    ],
    increment: {},
    set: { backupCodes: next },
  });
  return updated !== null;
}

/**
 * Restarts an unverified enrollment in place: the new secret and codes are written only while
 * the row is still unverified, so an enrollment confirmed meanwhile is never overwritten.
 */
export async function restartEnrollment(
  adapter: Adapter,
  row: TwoFactorRow,
  data: { secret: string; backupCodes: string; verified: boolean },
): Promise<boolean> {
  const updated = await adapter.incrementOne({
    model: TWO_FACTOR_MODEL,
    where: [
      { field: "id", value: row.id },
      { field: "verified", value: false },
    ],
    increment: {},
    set: data,
  });
  return updated !== null;
}
