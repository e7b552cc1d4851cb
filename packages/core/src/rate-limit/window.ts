import type { RateLimitDecision, RateLimitRecord, RateLimitRule } from "./options.js";

/** A decision plus the record to store when the request is allowed. */
export interface WindowStep extends RateLimitDecision {
  /** The counter after this request; null when refused (a refusal writes nothing). */
  next: RateLimitRecord | null;
}

/** Whole seconds until the window that began at `lastRequest` ends (the reference rounds up). */
export function secondsLeft(lastRequest: number, window: number, now: number): number {
  return Math.ceil((lastRequest + window * 1000 - now) / 1000);
}

/**
 * The reference's window algorithm for memory and database counters (core.md §11.2): the
 * window runs from `lastRequest`, the last *allowed* request, which each allowed request moves
 * forward. A window that has run out restarts the count at 1; a full one refuses.
 */
export function stepWindow(
  current: RateLimitRecord | null | undefined,
  key: string,
  rule: RateLimitRule,
  now: number,
): WindowStep {
  if (!current || now - current.lastRequest >= rule.window * 1000) {
    return { allowed: true, retryAfter: null, next: { key, count: 1, lastRequest: now } };
  }
  if (current.count >= rule.max) {
    return { allowed: false, retryAfter: secondsLeft(current.lastRequest, rule.window, now), next: null };
  }
  return { allowed: true, retryAfter: null, next: { key, count: current.count + 1, lastRequest: now } };
}
