import { API_KEY_ERROR_CODES } from "./error-codes.js";
import type { ResolvedConfig } from "./options.js";

/** null, undefined and "default" all name the default configuration (keys older than `configId`). */
export const isDefaultConfigId = (configId: string | null | undefined): boolean => !configId || configId === "default";

/** A key's `configId` matches the expected one, the default spelled any of its ways. */
export function configIdMatches(keyConfigId: string | null | undefined, expected: string | null | undefined): boolean {
  if (isDefaultConfigId(keyConfigId) && isDefaultConfigId(expected)) return true;
  return keyConfigId === expected;
}

/**
 * The configuration `configId` names; an unknown or absent id falls back to the default one
 * (reference), and without a default configuration the answer is 400
 * `NO_DEFAULT_API_KEY_CONFIGURATION_FOUND`.
 */
export function pickConfig(configs: readonly ResolvedConfig[], configId: string | null | undefined): ResolvedConfig {
  if (configId) {
    const named = configs.find((c) => c.configId === configId);
    if (named) return named;
  }
  const fallback = configs.find((c) => isDefaultConfigId(c.configId));
  if (!fallback) throw API_KEY_ERROR_CODES.fail("NO_DEFAULT_API_KEY_CONFIGURATION_FOUND", "BAD_REQUEST");
  return fallback;
}
