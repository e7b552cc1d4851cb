import type { SchemaDefinition } from "@latchkey/core";

/**
 * The `deviceCode` table, column for column the reference's: one row per pending device
 * authorization, deleted when it is redeemed, denied-and-polled or found expired.
 * `pollingInterval` is in milliseconds; `userId` is set once a signed-in visitor claims the
 * code (no foreign key, as in the reference). Both codes are unique.
 */
export const deviceAuthorizationSchema = {
  deviceCode: {
    fields: {
      deviceCode: { type: "string", required: true },
      userCode: { type: "string", required: true },
      userId: { type: "string", required: false },
      expiresAt: { type: "date", required: true },
      status: { type: "string", required: true },
      lastPolledAt: { type: "date", required: false },
      pollingInterval: { type: "number", required: false },
      clientId: { type: "string", required: false },
      scope: { type: "string", required: false },
    },
    indexes: [
      { fields: ["deviceCode"], unique: true },
      { fields: ["userCode"], unique: true },
    ],
  },
} satisfies SchemaDefinition;

/** The columns `oauthDeviceAuthorization()` adds (the reference's names): the OAuth client a code was issued to, and its RFC 8707 resources. */
export const oauthDeviceCodeFields = {
  resources: { type: "string[]", required: false },
  oauthClientId: { type: "string", required: false },
} satisfies SchemaDefinition[string]["fields"];

/** The states a `deviceCode` row moves through. */
export type DeviceCodeStatus = "pending" | "approved" | "denied";

/** One `deviceCode` row as read from the database. */
export interface DeviceCodeRow {
  id: string;
  deviceCode: string;
  userCode: string;
  userId?: string | null;
  expiresAt: Date;
  status: string;
  lastPolledAt?: Date | null;
  pollingInterval?: number | null;
  clientId?: string | null;
  scope?: string | null;
  /** Set by `oauthDeviceAuthorization()`: the OAuth client the code was issued to. */
  oauthClientId?: string | null;
  resources?: string[] | null;
  [extra: string]: unknown;
}
