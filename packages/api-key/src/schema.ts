import type { SchemaDefinition } from "@latchkey/core";
import type { Permissions } from "./options.js";

export type { Permissions };

/** The reference's table name for keys. */
export const API_KEY_TABLE_NAME = "apikey";

/**
 * The `apikey` table, column for column the reference's. `key` holds the SHA-256 base64url
 * digest of the key (the plain key with `disableKeyHashing`); `permissions` and `metadata`
 * are JSON text; `refillInterval` and `rateLimitTimeWindow` are milliseconds. The rate-limit
 * defaults are those of a single configuration, as in the reference.
 */
export function apiKeySchema(defaults: { rateLimitMax: number; rateLimitTimeWindow: number }): SchemaDefinition {
  return {
    [API_KEY_TABLE_NAME]: {
      fields: {
        configId: { type: "string", required: true, defaultValue: "default", input: false, index: true },
        name: { type: "string", required: false, input: false },
        start: { type: "string", required: false, input: false },
        referenceId: { type: "string", required: true, input: false, index: true },
        prefix: { type: "string", required: false, input: false },
        key: { type: "string", required: true, input: false, index: true },
        refillInterval: { type: "number", required: false, input: false },
        refillAmount: { type: "number", required: false, input: false },
        lastRefillAt: { type: "date", required: false, input: false },
        enabled: { type: "boolean", required: false, input: false, defaultValue: true },
        rateLimitEnabled: { type: "boolean", required: false, input: false, defaultValue: true },
        rateLimitTimeWindow: { type: "number", required: false, input: false, defaultValue: defaults.rateLimitTimeWindow },
        rateLimitMax: { type: "number", required: false, input: false, defaultValue: defaults.rateLimitMax },
        requestCount: { type: "number", required: false, input: false, defaultValue: 0 },
        remaining: { type: "number", required: false, input: false },
        lastRequest: { type: "date", required: false, input: false },
        expiresAt: { type: "date", required: false, input: false },
        createdAt: { type: "date", required: true, input: false },
        updatedAt: { type: "date", required: true, input: false },
        permissions: { type: "string", required: false, input: false },
        metadata: { type: "string", required: false, input: true },
      },
    },
  };
}

/** One `apikey` row as the adapter reads it (`metadata` and `permissions` still JSON text). */
export interface ApiKeyRow {
  id: string;
  configId: string;
  name: string | null;
  start: string | null;
  referenceId: string;
  prefix: string | null;
  key: string;
  refillInterval: number | null;
  refillAmount: number | null;
  lastRefillAt: Date | null;
  enabled: boolean;
  rateLimitEnabled: boolean;
  rateLimitTimeWindow: number | null;
  rateLimitMax: number | null;
  requestCount: number;
  remaining: number | null;
  lastRequest: Date | null;
  expiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  permissions: string | null;
  metadata: string | null;
}
