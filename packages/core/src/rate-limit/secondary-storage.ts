import type { Logger } from "../logger.js";
import { warnNonAtomicStorage, type SecondaryStorage } from "../db/secondary-storage.js";
import { BetterAuthError } from "../errors/api-error.js";
import type { RateLimitConsumeStorage, RateLimitRecord } from "./options.js";
import { stepWindow } from "./window.js";

/** A plain integer counter, as `increment` keeps it (Redis hands back digits as a string). */
function counterValue(raw: unknown): number | null {
  if (typeof raw === "number" && Number.isInteger(raw)) return raw;
  if (typeof raw === "string" && /^\d+$/.test(raw)) return Number(raw);
  return null;
}

/** A counter in the 1.x JSON format `{ key, count, lastRequest }` (text or already parsed). */
function legacyRecord(raw: unknown, key: string): RateLimitRecord | null {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  if (!value || typeof value !== "object") return null;
  const { count, lastRequest } = value as Partial<RateLimitRecord>;
  if (typeof count !== "number" || typeof lastRequest !== "number") return null;
  return { key, count, lastRequest };
}

/**
 * Counters in `secondaryStorage` under the reference's key `<ip>|<path>` (core.md §2.5).
 *
 * With `increment(key, ttl)`: one atomic increment per request, allowed while the result is at
 * most `max`. The counter is a plain integer that expires `window` seconds after its first
 * request (a fixed window, as in the reference), and a refusal asks the client to wait one
 * full window. A value the store cannot increment — a counter left in the 1.0 JSON format —
 * is deleted and counted again from 1, restarting that window once (spec, Limits).
 *
 * Without `increment`: the older read-then-write path on JSON records, with the memory
 * store's window algorithm, after one warning. Concurrent requests can then undercount.
 */
export function secondaryStorageStore(
  storage: SecondaryStorage,
  logger: Logger,
  now: () => number = () => Date.now(),
): RateLimitConsumeStorage {
  let replacing = false;
  const counted = async (key: string, ttl: number): Promise<number> => {
    const increment = storage.increment!;
    let failure: unknown = null;
    // A replacement races other requests on the same key: one that finds a counter a concurrent
    // request already replaced simply increments again.
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const value = counterValue(await increment(key, ttl));
        if (value !== null) return value;
        failure = new BetterAuthError("secondaryStorage.increment did not return a number.");
      } catch (error) {
        failure = error;
      }
      const stored = await storage.get(key);
      // Absent or an integer: replaced meanwhile (try again), or the store fails for another reason.
      if (stored === null || stored === undefined || counterValue(stored) !== null) continue;
      if (!replacing) {
        replacing = true;
        logger.info("Rate limit: replacing counters stored in the 1.0 JSON format with plain integers.");
      }
      await storage.delete(key);
    }
    throw failure;
  };

  return {
    async consume(key, rule) {
      if (storage.increment) {
        // Stores such as Redis take whole seconds above 0 (EXPIRE); a fractional window rounds up.
        const count = await counted(key, Math.max(1, Math.ceil(rule.window)));
        return count <= rule.max
          ? { allowed: true, retryAfter: null }
          : { allowed: false, retryAfter: rule.window };
      }
      warnNonAtomicStorage(storage, logger);
      const raw = await storage.get(key);
      const t = now();
      const plain = counterValue(raw);
      // An integer written by a node that has `increment`: its start is unknown, so it counts from now.
      const current = plain !== null ? { key, count: plain, lastRequest: t } : legacyRecord(raw, key);
      const step = stepWindow(current, key, rule, t);
      if (step.next) await storage.set(key, JSON.stringify(step.next), Math.max(1, Math.ceil(rule.window)));
      return { allowed: step.allowed, retryAfter: step.retryAfter };
    },
  };
}
