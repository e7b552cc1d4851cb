import type { SchemaDefinition } from "@latchkey/core";

/**
 * The reference's two-factor schema, column for column: `user.twoFactorEnabled`, and one
 * `twoFactor` row per enrolled user holding the encrypted TOTP secret, the (by default
 * encrypted) JSON list of backup codes, whether the TOTP enrollment was confirmed, and the
 * lockout counter and deadline.
 */
export const twoFactorSchema = {
  user: {
    fields: {
      twoFactorEnabled: { type: "boolean", required: false, defaultValue: false, input: false },
    },
  },
  twoFactor: {
    fields: {
      secret: { type: "string", required: true, returned: false, index: true },
      backupCodes: { type: "string", required: true, returned: false },
      userId: { type: "string", required: true, returned: false, references: { model: "user", field: "id" }, index: true },
      verified: { type: "boolean", required: false, defaultValue: true, input: false },
      failedVerificationCount: { type: "number", required: false, defaultValue: 0, input: false, returned: false },
      lockedUntil: { type: "date", required: false, input: false, returned: false },
    },
  },
} satisfies SchemaDefinition;

/** One `twoFactor` row as read from the database. */
export interface TwoFactorRow {
  id: string;
  secret: string;
  backupCodes: string;
  userId: string;
  /** `null` on rows written before the column existed: treated as verified, as the reference does. */
  verified?: boolean | null;
  failedVerificationCount?: number | null;
  lockedUntil?: Date | null;
  [field: string]: unknown;
}

/** The logical model name of the table (its physical name follows `twoFactorTable`). */
export const TWO_FACTOR_MODEL = "twoFactor";
