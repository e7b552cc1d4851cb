import * as v from "valibot";
import { API_KEY_ERROR_CODES } from "../error-codes.js";
import type { ResolvedConfig } from "../options.js";

const fail = API_KEY_ERROR_CODES.fail;
const DAY_SECONDS = 86_400;

/** `{ resource: [actions] }`. */
export const permissionsSchema = v.record(v.string(), v.array(v.string()));

/** Metadata must be an object, and metadata must be enabled (create checks only truthy values, as the reference). */
export function checkMetadata(config: ResolvedConfig, metadata: unknown, create: boolean): void {
  if (create ? !metadata : metadata === undefined) return;
  if (create && !config.enableMetadata) throw fail("METADATA_DISABLED", "BAD_REQUEST");
  if (typeof metadata !== "object") throw fail("INVALID_METADATA_TYPE", "BAD_REQUEST");
}

/** `refillAmount` and `refillInterval` come together. */
export function checkRefillPair(amount: number | undefined, interval: number | undefined): void {
  if (amount && !interval) throw fail("REFILL_AMOUNT_AND_INTERVAL_REQUIRED", "BAD_REQUEST");
  if (interval && !amount) throw fail("REFILL_INTERVAL_AND_AMOUNT_REQUIRED", "BAD_REQUEST");
}

/** `expiresIn` (seconds) against the configuration's bounds (days) and switch. */
export function checkExpiresIn(config: ResolvedConfig, expiresIn: number): void {
  const rules = config.keyExpiration;
  if (rules.disableCustomExpiresTime) throw fail("KEY_DISABLED_EXPIRATION", "BAD_REQUEST");
  const days = expiresIn / DAY_SECONDS;
  if (days < rules.minExpiresIn) throw fail("EXPIRES_IN_IS_TOO_SMALL", "BAD_REQUEST");
  if (days > rules.maxExpiresIn) throw fail("EXPIRES_IN_IS_TOO_LARGE", "BAD_REQUEST");
}

/** The prefix length within the configured bounds (an empty prefix means none, as the reference). */
export function checkPrefix(config: ResolvedConfig, prefix: string | undefined): void {
  if (!prefix) return;
  if (prefix.length < config.minimumPrefixLength || prefix.length > config.maximumPrefixLength) {
    throw fail("INVALID_PREFIX_LENGTH", "BAD_REQUEST");
  }
}

/** The name length within bounds; on create a missing name fails when `requireName`. */
export function checkName(config: ResolvedConfig, name: string | undefined, create: boolean): void {
  if (create ? !name : name === undefined) {
    if (create && config.requireName) throw fail("NAME_REQUIRED", "BAD_REQUEST");
    return;
  }
  if (name!.length < config.minimumNameLength || name!.length > config.maximumNameLength) {
    throw fail("INVALID_NAME_LENGTH", "BAD_REQUEST");
  }
}

/**
 * Expiry of a key created without `expiresIn`: `defaultExpiresIn` milliseconds from now, the
 * unit the reference documents (it applies the value as seconds; DIVERGENCES.md).
 */
export function defaultExpiresAt(config: ResolvedConfig, now: Date): Date | null {
  const ms = config.keyExpiration.defaultExpiresIn;
  return ms ? new Date(now.getTime() + ms) : null;
}
