import { APIError, endpoint } from "@latchkey/core";
import * as v from "valibot";
import { pickConfig } from "../configurations.js";
import { API_KEY_ERROR_CODES } from "../error-codes.js";
import { deleteExpiredKeys } from "../expired-sweep.js";
import type { ResolvedConfig } from "../options.js";
import { toPublic } from "../record.js";
import { validateApiKey } from "../verify-key.js";
import { permissionsSchema } from "./input-rules.js";

const verifyBody = v.object({ configId: v.optional(v.string()), key: v.string(), permissions: v.optional(permissionsSchema) });

/**
 * Server-only `auth.api.verifyApiKey({ body: { key, configId?, permissions? } })`: counts one
 * use and answers `{ valid, error, key }`; a refused key is `{ valid: false, error: { code,
 * message }, key: null }`, never an exception.
 */
export const verifyApiKey = (configs: readonly ResolvedConfig[]) =>
  endpoint("/api-key/verify", { method: "POST", body: verifyBody, serverOnly: true }, async (ctx) => {
    const { configId, key, permissions } = ctx.body;
    try {
      const lookup = pickConfig(configs, configId);
      // Reference: with an explicit configId its validator runs before the lookup.
      if (configId !== undefined && lookup.customAPIKeyValidator && !(await lookup.customAPIKeyValidator({ ctx, key }))) {
        return { valid: false, error: { message: API_KEY_ERROR_CODES.INVALID_API_KEY, code: "KEY_NOT_FOUND" }, key: null };
      }
      const { record } = await validateApiKey(ctx, configs, {
        key,
        lookup,
        expectedConfigId: configId,
        permissions,
        runCustomValidator: configId === undefined,
      });
      // The claimed record already answers `remaining` as what is left, in every storage mode.
      return { valid: true, error: null, key: toPublic(record) };
    } catch (error) {
      if (!(error instanceof APIError)) {
        ctx.context.logger.error("api-key: failed to verify an API key", error);
        return { valid: false, error: { message: API_KEY_ERROR_CODES.INVALID_API_KEY, code: "INVALID_API_KEY" }, key: null };
      }
      return { valid: false, error: { ...error.body, message: error.body?.message, code: error.body?.code }, key: null };
    }
  });

/** Server-only `auth.api.deleteAllExpiredApiKeys()`: `{ success, error }`. */
export const deleteAllExpiredApiKeys = endpoint(
  "/api-key/delete-all-expired-api-keys",
  { method: "POST", serverOnly: true },
  async (ctx) => {
    try {
      await deleteExpiredKeys(ctx.context);
      return { success: true, error: null };
    } catch (error) {
      ctx.context.logger.error("api-key: failed to delete expired API keys", error);
      return { success: false, error: { message: "Failed to delete expired API keys" } };
    }
  },
);
