import { APIError } from "@latchkey/core";
import { API_KEY_ERROR_CODES } from "./error-codes.js";

/**
 * The per-key rate-limit refusal: 429 `{ code: "RATE_LIMITED", message: "Rate limit exceeded.",
 * details: { tryAgainIn } }`, `tryAgainIn` in milliseconds until the window ends.
 */
export function rateLimited(tryAgainIn: number): APIError {
  return new APIError("TOO_MANY_REQUESTS", {
    code: "RATE_LIMITED",
    message: API_KEY_ERROR_CODES.RATE_LIMIT_EXCEEDED,
    details: { tryAgainIn: Math.max(Math.ceil(tryAgainIn), 0) },
  });
}

/** 429 `USAGE_EXCEEDED`: the key has no uses left. */
export const usageExceeded = (): APIError => API_KEY_ERROR_CODES.fail("USAGE_EXCEEDED", "TOO_MANY_REQUESTS");

/** The key's window and maximum when its rate limit applies, else null. */
export function rateLimitOf(
  record: { rateLimitEnabled: boolean; rateLimitTimeWindow: number | null; rateLimitMax: number | null },
  enabled: boolean,
): { window: number; max: number } | null {
  if (!enabled || record.rateLimitEnabled === false) return null;
  if (record.rateLimitTimeWindow == null || record.rateLimitMax == null) return null;
  return { window: record.rateLimitTimeWindow, max: record.rateLimitMax };
}

/**
 * A refill is due once `refillInterval` ms have passed since the last refill (or creation).
 * Same boundary as the reference: strictly more than the interval.
 */
export function refillDue(
  record: { refillInterval: number | null; refillAmount: number | null; lastRefillAt: Date | null; createdAt: Date },
  now: number,
): boolean {
  if (!record.refillInterval || !record.refillAmount) return false;
  return now - new Date(record.lastRefillAt ?? record.createdAt).getTime() > record.refillInterval;
}
