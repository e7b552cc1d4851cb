import type { LatchkeyPlugin } from "@latchkey/core";
import { API_KEY_ERROR_CODES } from "./error-codes.js";
import { resolveConfigs, type ApiKeyOptions, type ResolvedConfig } from "./options.js";
import { createApiKey } from "./routes/create.js";
import { deleteApiKey } from "./routes/delete.js";
import { getApiKey } from "./routes/get.js";
import { listApiKeys } from "./routes/list.js";
import { deleteAllExpiredApiKeys, verifyApiKey } from "./routes/server-only.js";
import { updateApiKey } from "./routes/update.js";
import { apiKeySchema } from "./schema.js";
import { apiKeySessionHook } from "./session-hook.js";

export { API_KEY_ERROR_CODES, API_KEY_ERROR_CODES as ERROR_CODES } from "./error-codes.js";
export { hashApiKey as defaultKeyHasher } from "./key-material.js";
export type { ApiKeyOptions, Permissions } from "./options.js";
export { API_KEY_TABLE_NAME, type ApiKeyRow } from "./schema.js";

/** The endpoints `apiKey()` adds, by `auth.api` name (the reference's names). */
export type ApiKeyEndpoints = {
  createApiKey: ReturnType<typeof createApiKey>;
  verifyApiKey: ReturnType<typeof verifyApiKey>;
  getApiKey: ReturnType<typeof getApiKey>;
  updateApiKey: ReturnType<typeof updateApiKey>;
  deleteApiKey: ReturnType<typeof deleteApiKey>;
  listApiKeys: ReturnType<typeof listApiKeys>;
  deleteAllExpiredApiKeys: typeof deleteAllExpiredApiKeys;
};

/** The plugin object `apiKey()` returns. */
export interface ApiKeyPlugin extends LatchkeyPlugin<"api-key", ApiKeyEndpoints> {
  id: "api-key";
  /** The resolved configurations, in the order given. */
  options: ResolvedConfig[];
}

/**
 * API keys for users and organizations: create, get, list, update and delete routes, a
 * server-only `verifyApiKey`, per-key rate limits, usage quotas with refills, permissions and
 * metadata, keys in the database or in secondary storage, and (with
 * `enableSessionForAPIKeys`) a session for any request that sends a key in `x-api-key`.
 * Keys and rows are the reference's, so keys made by either side work on both.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [apiKey({ enableSessionForAPIKeys: true })] });
 */
export function apiKey(options?: ApiKeyOptions | ApiKeyOptions[]): ApiKeyPlugin {
  const configs = resolveConfigs(options);
  // Reference: the column defaults are a single configuration's; several fall back to 10 per day.
  const single = configs.length === 1 ? configs[0] : undefined;
  return {
    id: "api-key",
    schema: apiKeySchema({
      rateLimitMax: single?.rateLimit.maxRequests ?? 10,
      rateLimitTimeWindow: single?.rateLimit.timeWindow ?? 86_400_000,
    }),
    endpoints: {
      createApiKey: createApiKey(configs),
      verifyApiKey: verifyApiKey(configs),
      getApiKey: getApiKey(configs),
      updateApiKey: updateApiKey(configs),
      deleteApiKey: deleteApiKey(configs),
      listApiKeys: listApiKeys(configs),
      deleteAllExpiredApiKeys,
    },
    hooks: { before: configs.some((c) => c.enableSessionForAPIKeys) ? [apiKeySessionHook(configs)] : [] },
    errorCodes: API_KEY_ERROR_CODES,
    options: configs,
  };
}
