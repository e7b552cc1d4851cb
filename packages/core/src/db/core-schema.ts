import type { SchemaDefinition } from "./field.js";

const now = (): Date => new Date();

/**
 * The four core tables with the reference's logical fields (reference core.md §2.2).
 * `id` is implicit on every model. `updatedAt` of session and account has no default, only
 * `onUpdate`, as in the reference: core writes it explicitly on create.
 */
export const coreSchema = {
  user: {
    order: 1,
    fields: {
      name: { type: "string", required: true, sortable: true },
      email: { type: "string", required: true, unique: true, sortable: true },
      emailVerified: { type: "boolean", required: true, defaultValue: false, input: false },
      image: { type: "string", required: false },
      createdAt: { type: "date", required: true, defaultValue: now, input: false },
      updatedAt: { type: "date", required: true, defaultValue: now, onUpdate: now, input: false },
    },
  },
  session: {
    order: 2,
    fields: {
      expiresAt: { type: "date", required: true },
      token: { type: "string", required: true, unique: true },
      createdAt: { type: "date", required: true, defaultValue: now },
      updatedAt: { type: "date", required: true, onUpdate: now },
      ipAddress: { type: "string", required: false },
      userAgent: { type: "string", required: false },
      userId: {
        type: "string",
        required: true,
        index: true,
        references: { model: "user", field: "id", onDelete: "cascade" },
      },
    },
  },
  account: {
    order: 3,
    fields: {
      accountId: { type: "string", required: true },
      providerId: { type: "string", required: true },
      userId: {
        type: "string",
        required: true,
        index: true,
        references: { model: "user", field: "id", onDelete: "cascade" },
      },
      accessToken: { type: "string", required: false, returned: false },
      refreshToken: { type: "string", required: false, returned: false },
      idToken: { type: "string", required: false, returned: false },
      accessTokenExpiresAt: { type: "date", required: false, returned: false },
      refreshTokenExpiresAt: { type: "date", required: false, returned: false },
      scope: { type: "string", required: false },
      password: { type: "string", required: false, returned: false },
      createdAt: { type: "date", required: true, defaultValue: now },
      updatedAt: { type: "date", required: true, onUpdate: now },
    },
  },
  verification: {
    order: 4,
    fields: {
      identifier: { type: "string", required: true, index: true },
      value: { type: "string", required: true },
      expiresAt: { type: "date", required: true },
      createdAt: { type: "date", required: true, defaultValue: now },
      updatedAt: { type: "date", required: true, defaultValue: now, onUpdate: now },
    },
  },
} satisfies SchemaDefinition;

/** The `rateLimit` table, present only with `rateLimit.storage: "database"`. */
export const rateLimitSchema = {
  rateLimit: {
    order: 100,
    fields: {
      key: { type: "string", required: true, unique: true },
      count: { type: "number", required: true },
      lastRequest: { type: "number", required: true, bigint: true, defaultValue: () => Date.now() },
    },
  },
} satisfies SchemaDefinition;
