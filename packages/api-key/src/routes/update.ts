import { endpoint, getSessionFromRequest } from "@latchkey/core";
import * as v from "valibot";
import { API_KEY_ERROR_CODES } from "../error-codes.js";
import { sweepExpiredKeys } from "../expired-sweep.js";
import type { ResolvedConfig } from "../options.js";
import { toPublic, type ApiKeyRecord } from "../record.js";
import { isClientCall } from "../request-kind.js";
import { updateKey, usesDatabase } from "../store.js";
import { resetUses } from "../usage-storage.js";
import { checkExpiresIn, checkName, permissionsSchema } from "./input-rules.js";
import { findOwnedKey } from "./owned-key.js";
import { presentable } from "./present.js";

const fail = API_KEY_ERROR_CODES.fail;

const body = v.object({
  configId: v.optional(v.string()),
  keyId: v.string(),
  userId: v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(String))),
  name: v.optional(v.string()),
  enabled: v.optional(v.boolean()),
  remaining: v.optional(v.pipe(v.number(), v.minValue(1))),
  refillAmount: v.optional(v.number()),
  refillInterval: v.optional(v.number()),
  metadata: v.optional(v.unknown()),
  expiresIn: v.optional(v.nullable(v.pipe(v.number(), v.minValue(1)))),
  rateLimitEnabled: v.optional(v.boolean()),
  rateLimitTimeWindow: v.optional(v.number()),
  rateLimitMax: v.optional(v.number()),
  permissions: v.optional(v.nullable(permissionsSchema)),
});

type UpdateBody = v.InferOutput<typeof body>;

/** The changes a body asks for, checked against the configuration (reference order and errors). */
function changesOf(config: ResolvedConfig, input: UpdateBody): Partial<ApiKeyRecord> {
  const changes: Partial<ApiKeyRecord> = {};
  if (input.name !== undefined) {
    checkName(config, input.name, false);
    changes.name = input.name;
  }
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  if (input.expiresIn !== undefined) {
    if (config.keyExpiration.disableCustomExpiresTime) throw fail("KEY_DISABLED_EXPIRATION", "BAD_REQUEST");
    if (input.expiresIn !== null) checkExpiresIn(config, input.expiresIn);
    changes.expiresAt = input.expiresIn ? new Date(Date.now() + input.expiresIn * 1000) : null;
  }
  // Reference: metadata is ignored, not refused, while metadata is disabled.
  if (input.metadata !== undefined && config.enableMetadata) {
    if (typeof input.metadata !== "object") throw fail("INVALID_METADATA_TYPE", "BAD_REQUEST");
    changes.metadata = input.metadata;
  }
  if (input.remaining !== undefined) changes.remaining = input.remaining;
  if (input.refillAmount !== undefined || input.refillInterval !== undefined) {
    if (input.refillInterval === undefined) throw fail("REFILL_AMOUNT_AND_INTERVAL_REQUIRED", "BAD_REQUEST");
    if (input.refillAmount === undefined) throw fail("REFILL_INTERVAL_AND_AMOUNT_REQUIRED", "BAD_REQUEST");
    changes.refillAmount = input.refillAmount;
    changes.refillInterval = input.refillInterval;
  }
  if (input.rateLimitEnabled !== undefined) changes.rateLimitEnabled = input.rateLimitEnabled;
  if (input.rateLimitTimeWindow !== undefined) changes.rateLimitTimeWindow = input.rateLimitTimeWindow;
  if (input.rateLimitMax !== undefined) changes.rateLimitMax = input.rateLimitMax;
  if (input.permissions !== undefined) changes.permissions = input.permissions === null ? null : JSON.stringify(input.permissions);
  if (Object.keys(changes).length === 0) throw fail("NO_VALUES_TO_UPDATE", "BAD_REQUEST");
  return changes;
}

/**
 * `POST /api-key/update` `{ keyId, ... }`: changes a key of the signed-in user (server code
 * may name `userId`) and answers it without `key`. Quotas, rate-limit settings and
 * permissions are server-only (400 `SERVER_ONLY_PROPERTY` from a client).
 */
export const updateApiKey = (configs: readonly ResolvedConfig[]) =>
  endpoint("/api-key/update", { method: "POST", body }, async (ctx) => {
    const input = ctx.body;
    const session = await getSessionFromRequest(ctx, { disableCookieCache: true });
    const client = isClientCall(ctx);
    const userId = client && !session ? undefined : (session?.user.id ?? input.userId);
    if (!userId) throw fail("UNAUTHORIZED_SESSION", "UNAUTHORIZED");
    if (session && input.userId && session.user.id !== input.userId) throw fail("UNAUTHORIZED_SESSION", "UNAUTHORIZED");
    const serverOnly = [input.refillAmount, input.refillInterval, input.rateLimitMax, input.rateLimitTimeWindow, input.rateLimitEnabled, input.remaining, input.permissions];
    if (client && serverOnly.some((value) => value !== undefined)) throw fail("SERVER_ONLY_PROPERTY", "BAD_REQUEST");
    const { record, config } = await findOwnedKey(ctx, configs, { keyId: input.keyId, configId: input.configId, userId, action: "update" });
    const changes = changesOf(config, input);
    const updated = (await updateKey(ctx.context, config, record, changes)) ?? record;
    if (changes.remaining !== undefined && !usesDatabase(config)) await resetUses(ctx.context, config, record);
    sweepExpiredKeys(ctx.context);
    return toPublic(await presentable(ctx.context, config, updated));
  });
