import { endpoint, getSessionFromRequest } from "@latchkey/core";
import * as v from "valibot";
import { pickConfig } from "../configurations.js";
import { API_KEY_ERROR_CODES } from "../error-codes.js";
import { sweepExpiredKeys } from "../expired-sweep.js";
import { generateApiKey, storedKey } from "../key-material.js";
import type { ResolvedConfig } from "../options.js";
import { checkOrgKeyAccess } from "../org-access.js";
import { parsePermissions, toPublic, type ApiKeyRecord } from "../record.js";
import { isClientCall } from "../request-kind.js";
import { insertKey } from "../store.js";
import { checkExpiresIn, checkMetadata, checkName, checkPrefix, checkRefillPair, defaultExpiresAt, permissionsSchema } from "./input-rules.js";

const fail = API_KEY_ERROR_CODES.fail;

const body = v.object({
  configId: v.optional(v.string()),
  name: v.optional(v.string()),
  expiresIn: v.optional(v.nullable(v.pipe(v.number(), v.minValue(1))), null),
  prefix: v.optional(v.pipe(v.string(), v.regex(/^[a-zA-Z0-9_-]+$/, "Invalid prefix format, must be alphanumeric and contain only underscores and hyphens."))),
  remaining: v.optional(v.nullable(v.pipe(v.number(), v.minValue(0)))),
  metadata: v.optional(v.unknown()),
  refillAmount: v.optional(v.pipe(v.number(), v.minValue(1))),
  refillInterval: v.optional(v.number()),
  rateLimitTimeWindow: v.optional(v.number()),
  rateLimitMax: v.optional(v.number()),
  rateLimitEnabled: v.optional(v.boolean()),
  permissions: v.optional(permissionsSchema),
  userId: v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(String))),
  organizationId: v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(String))),
});

/**
 * `POST /api-key/create`: makes a key for the signed-in user (or, from server code, for
 * `userId`; with `references: "organization"`, for `organizationId`) and answers the key row
 * with the plain `key`, the only time it is shown. Quotas, rate-limit settings and
 * permissions are server-only fields (400 `SERVER_ONLY_PROPERTY` from a client).
 */
export const createApiKey = (configs: readonly ResolvedConfig[]) =>
  endpoint("/api-key/create", { method: "POST", body }, async (ctx) => {
    const input = ctx.body;
    const config = pickConfig(configs, input.configId);
    const session = await getSessionFromRequest(ctx, { disableCookieCache: true });
    const client = isClientCall(ctx);
    const serverOnly = [input.refillAmount, input.refillInterval, input.rateLimitMax, input.rateLimitTimeWindow, input.rateLimitEnabled, input.permissions];
    if (client && (serverOnly.some((value) => value !== undefined) || (input.remaining !== undefined && input.remaining !== null))) {
      throw fail("SERVER_ONLY_PROPERTY", "BAD_REQUEST");
    }
    if (ctx.request && input.userId !== undefined) throw fail("UNAUTHORIZED_SESSION", "UNAUTHORIZED");

    let referenceId: string;
    if (config.references === "organization") {
      if (!input.organizationId) throw fail("ORGANIZATION_ID_REQUIRED", "BAD_REQUEST");
      const userId = session?.user.id ?? input.userId;
      if (!userId) throw fail("UNAUTHORIZED_SESSION", "UNAUTHORIZED");
      await checkOrgKeyAccess(ctx, userId, input.organizationId, "create");
      referenceId = input.organizationId;
    } else if (client) {
      if (!session) throw fail("UNAUTHORIZED_SESSION", "UNAUTHORIZED");
      referenceId = session.user.id;
    } else {
      if (!session && !input.userId) throw fail("UNAUTHORIZED_SESSION", "UNAUTHORIZED");
      if (session && input.userId && session.user.id !== input.userId) throw fail("UNAUTHORIZED_SESSION", "UNAUTHORIZED");
      referenceId = session?.user.id ?? input.userId!;
    }

    checkMetadata(config, input.metadata, true);
    checkRefillPair(input.refillAmount, input.refillInterval);
    if (input.expiresIn) checkExpiresIn(config, input.expiresIn);
    checkPrefix(config, input.prefix);
    checkName(config, input.name, true);
    sweepExpiredKeys(ctx.context);

    const key = await generateApiKey(config, input.prefix || config.defaultPrefix);
    const defaults = config.defaultPermissions;
    const granted = input.permissions ?? (typeof defaults === "function" ? await defaults(referenceId, ctx) : defaults);
    const now = new Date();
    const data: Omit<ApiKeyRecord, "id"> = {
      configId: config.configId,
      createdAt: now,
      updatedAt: now,
      name: input.name ?? null,
      prefix: input.prefix ?? config.defaultPrefix ?? null,
      start: config.startingCharactersConfig.shouldStore ? key.substring(0, config.startingCharactersConfig.charactersLength) : null,
      key: await storedKey(config, key),
      enabled: true,
      expiresAt: input.expiresIn ? new Date(now.getTime() + input.expiresIn * 1000) : defaultExpiresAt(config, now),
      referenceId,
      lastRefillAt: null,
      lastRequest: null,
      metadata: input.metadata ? input.metadata : null,
      rateLimitMax: input.rateLimitMax ?? config.rateLimit.maxRequests,
      rateLimitTimeWindow: input.rateLimitTimeWindow ?? config.rateLimit.timeWindow,
      // A key with a refill but no `remaining` starts with one refill's worth. (The reference
      // defaults `remaining` to null first, so such a key is unlimited; DIVERGENCES.md.)
      remaining: input.remaining === undefined ? (input.refillAmount ?? null) : input.remaining,
      refillAmount: input.refillAmount ?? null,
      refillInterval: input.refillInterval ?? null,
      rateLimitEnabled: input.rateLimitEnabled ?? config.rateLimit.enabled,
      requestCount: 0,
      permissions: granted ? JSON.stringify(granted) : null,
    };
    const record = await insertKey(ctx.context, config, data);
    return { ...toPublic(record), key, metadata: input.metadata ?? null, permissions: parsePermissions(record.permissions) };
  });
