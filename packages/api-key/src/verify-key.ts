import type { EndpointContext } from "@latchkey/core";
import { configIdMatches, pickConfig } from "./configurations.js";
import { API_KEY_ERROR_CODES } from "./error-codes.js";
import { storedKey } from "./key-material.js";
import type { Permissions, ResolvedConfig } from "./options.js";
import { permissionsCover } from "./permissions.js";
import { usageExceeded } from "./rate-limit.js";
import { parsePermissions, type ApiKeyRecord } from "./record.js";
import { deleteKey, findByHash, refreshCache, usesDatabase } from "./store.js";
import { claimUsageInDatabase } from "./usage-database.js";
import { claimUsageInStorage } from "./usage-storage.js";

/** What `validateApiKey` is asked to check. */
export interface ValidateRequest {
  key: string;
  /** The configuration to look the key up in. */
  lookup: ResolvedConfig;
  /** When set, the key must belong to this configuration. */
  expectedConfigId?: string | undefined;
  permissions?: Permissions | undefined;
  /** Run the key's configuration's `customAPIKeyValidator`. */
  runCustomValidator: boolean;
}

const fail = API_KEY_ERROR_CODES.fail;

/** Deletes a key now, or in the background with `deferUpdates`. */
async function dropKey(ctx: EndpointContext, config: ResolvedConfig, record: ApiKeyRecord): Promise<void> {
  const run = deleteKey(ctx.context, config, record);
  if (!config.deferUpdates) return run;
  run.catch((error: unknown) => ctx.context.logger.error("api-key: deferred delete failed", error));
}

/**
 * Checks a presented key and counts one use of it, in the reference's order: lookup by its
 * stored form, configuration, custom validator, `enabled` (401 KEY_DISABLED), expiry (the key
 * is deleted; 401 KEY_EXPIRED), permissions (401 KEY_NOT_FOUND), an exhausted key without
 * refill (deleted; 429 USAGE_EXCEEDED), then the rate limit and `remaining`.
 */
export async function validateApiKey(
  ctx: EndpointContext,
  configs: readonly ResolvedConfig[],
  request: ValidateRequest,
): Promise<{ record: ApiKeyRecord; config: ResolvedConfig }> {
  const found = await findByHash(ctx.context, request.lookup, await storedKey(request.lookup, request.key));
  if (!found) throw fail("INVALID_API_KEY", "UNAUTHORIZED");
  if (request.expectedConfigId !== undefined && !configIdMatches(found.configId, request.expectedConfigId)) {
    throw fail("INVALID_API_KEY", "UNAUTHORIZED");
  }
  const config = pickConfig(configs, found.configId);
  const validator = config.customAPIKeyValidator;
  if (request.runCustomValidator && validator && !(await validator({ ctx, key: request.key }))) {
    throw fail("KEY_NOT_FOUND", "UNAUTHORIZED");
  }
  if (found.enabled === false) throw fail("KEY_DISABLED", "UNAUTHORIZED");
  if (found.expiresAt && Date.now() > new Date(found.expiresAt).getTime()) {
    await dropKey(ctx, config, found);
    throw fail("KEY_EXPIRED", "UNAUTHORIZED");
  }
  if (request.permissions) {
    const granted = parsePermissions(found.permissions);
    if (!granted || !permissionsCover(granted, request.permissions)) throw fail("KEY_NOT_FOUND", "UNAUTHORIZED");
  }
  if (found.remaining === 0 && found.refillAmount === null) {
    await dropKey(ctx, config, found);
    throw usageExceeded();
  }
  const record = usesDatabase(config)
    ? await claimUsageInDatabase(ctx.context, config, found)
    : await claimUsageInStorage(ctx.context, config, found);
  if (usesDatabase(config) && record !== found) await refreshCache(ctx.context, config, record);
  return { record, config };
}
