import type { SchemaDefinition } from "@latchkey/core";

/**
 * The columns the admin plugin adds, as the reference stores them: on `user` the comma-joined
 * `role`, `banned` (false by default), `banReason` and `banExpires`; on `session` the id of the
 * administrator behind an impersonation, `impersonatedBy`. None is accepted from sign-up input.
 */
export const adminSchema = {
  user: {
    fields: {
      role: { type: "string", required: false, input: false },
      banned: { type: "boolean", required: false, input: false, defaultValue: false },
      banReason: { type: "string", required: false, input: false },
      banExpires: { type: "date", required: false, input: false },
    },
  },
  session: {
    fields: {
      impersonatedBy: { type: "string", required: false, input: false },
    },
  },
} satisfies SchemaDefinition;

/** A user row with the admin columns. */
export interface UserWithRole {
  id: string;
  email: string;
  name: string;
  role?: string | null;
  banned?: boolean | null;
  banReason?: string | null;
  banExpires?: Date | null;
  [field: string]: unknown;
}

/** A session row with the impersonation column. */
export interface SessionWithImpersonatedBy {
  id: string;
  token: string;
  userId: string;
  expiresAt: Date;
  impersonatedBy?: string | null;
  [field: string]: unknown;
}
