import type { RateLimitConsumeStorage, RateLimitRecord } from "./options.js";
import { stepWindow } from "./window.js";

/** Entries kept at most; past it the least recently allowed keys go first (reference cap). */
const MAX_ENTRIES = 100_000;
/** Expired entries are swept at most this often, not on every request. */
const SWEEP_EVERY_MS = 10_000;

interface Entry {
  record: RateLimitRecord;
  expiresAt: number;
}

/** Options of the in-process store (tests inject the clock). */
export interface MemoryStorageOptions {
  now?: () => number;
  /** @default 100000 */
  maxEntries?: number;
}

/**
 * Counters in this process's memory, one store per auth instance. Read, decide and write
 * happen with no `await` in between, so each request is one atomic step on a single event
 * loop; other processes do not see these counters (use database or secondary storage then).
 */
export function memoryStorage(
  options: MemoryStorageOptions = {},
): RateLimitConsumeStorage & { readonly size: number } {
  const now = options.now ?? ((): number => Date.now());
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  const entries = new Map<string, Entry>();
  let sweptAt = 0;

  const sweep = (t: number): void => {
    if (t - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = t;
    for (const [key, entry] of entries) if (t >= entry.expiresAt) entries.delete(key);
  };

  return {
    get size() {
      return entries.size;
    },
    async consume(key, rule) {
      const t = now();
      sweep(t);
      const entry = entries.get(key);
      const step = stepWindow(entry && t < entry.expiresAt ? entry.record : undefined, key, rule, t);
      if (step.next) {
        entries.delete(key);
        entries.set(key, { record: step.next, expiresAt: t + rule.window * 1000 });
        // Map order is insertion order and an allowed request re-inserts its key, so the
        // first key is the least recently allowed one.
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      }
      return { allowed: step.allowed, retryAfter: step.retryAfter };
    },
  };
}
