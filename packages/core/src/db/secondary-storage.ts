import type { Logger } from "../logger.js";

type Awaitable<T> = T | Promise<T>;

/**
 * A key-value store beside the database (`secondaryStorage`), e.g. Redis: sessions,
 * verification values and rate-limit counters. Keys and values are the reference's, so one
 * store can be shared with Better Auth 1.7.6 nodes (reference core.md §2.5, §11.3).
 *
 * Methods are called unbound (the reference's rate limiter does `const { increment } = storage`),
 * so implementations must not rely on `this`.
 */
export interface SecondaryStorage {
  /** The stored value (a string as written by `set`), or null / undefined when absent. */
  get: (key: string) => Awaitable<unknown>;
  /** Stores `value`; `ttl` in seconds. */
  set: (key: string, value: string, ttl?: number) => Awaitable<unknown>;
  delete: (key: string) => Awaitable<unknown>;
  /**
   * Atomically adds one to the integer counter at `key` and returns the new value. An absent
   * key starts at 1 and expires `ttl` seconds later; later increments never extend the TTL.
   * Optional: without it a non-atomic get-then-set is used and one warning is logged.
   */
  increment?: (key: string, ttl: number) => Awaitable<number>;
  /**
   * Atomically reads and removes `key` (Redis `GETDEL`), so of concurrent callers exactly one
   * gets the value. Optional: without it a non-atomic get-then-delete is used and one warning
   * is logged.
   */
  getAndDelete?: (key: string) => Awaitable<unknown>;
}

/**
 * Whole seconds from `now` until `expiresAt` (epoch ms or a Date), never negative; the
 * reference floors, so a value is never kept past its expiry.
 */
export function ttlSeconds(expiresAt: Date | number | string, now: number = Date.now()): number {
  const ms =
    expiresAt instanceof Date
      ? expiresAt.getTime()
      : typeof expiresAt === "number"
        ? expiresAt
        : Date.parse(expiresAt);
  if (!Number.isFinite(ms)) return 0;
  return Math.max(Math.floor((ms - now) / 1000), 0);
}

/**
 * A stored value as an object: JSON text is parsed (stores such as Upstash may hand back the
 * parsed object already). Anything unreadable is null, never an exception: a corrupt entry
 * must read as "absent", not turn a request into a 500.
 */
export function parseStoredJSON<T>(raw: unknown): T | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === "object") return raw as T;
  if (typeof raw !== "string") return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed !== null && typeof parsed === "object" ? (parsed as T) : null;
  } catch {
    return null;
  }
}

// One warning per storage object, whichever of the two atomic methods it lacks first.
const warned = new WeakSet<SecondaryStorage>();

/** Logs, once per storage object, that an atomic method is missing and the fallback races. */
export function warnNonAtomicStorage(storage: SecondaryStorage, logger: Logger | undefined): void {
  if (warned.has(storage)) return;
  warned.add(storage);
  const missing = [
    storage.getAndDelete ? null : "getAndDelete(key)",
    storage.increment ? null : "increment(key, ttl)",
  ]
    .filter(Boolean)
    .join(" and ");
  logger?.warn(
    `secondaryStorage does not implement ${missing}: using the non-atomic get-then-write path, ` +
      "under which concurrent requests can both consume one single-use value or undercount a rate limit.",
  );
}

/**
 * Reads and removes `key` in one step when the store can (`getAndDelete`); otherwise get, then
 * delete, after the one-time warning.
 */
export async function takeStoredValue(
  storage: SecondaryStorage,
  key: string,
  logger?: Logger,
): Promise<unknown> {
  if (storage.getAndDelete) return storage.getAndDelete(key);
  warnNonAtomicStorage(storage, logger);
  const value = await storage.get(key);
  if (value !== null && value !== undefined) await storage.delete(key);
  return value;
}

/**
 * Adds one to the counter at `key` (created at 1 with `ttl` seconds). Uses the store's atomic
 * `increment`; otherwise reads and rewrites a plain integer after the one-time warning. The
 * fallback cannot keep the original expiry, so each write restarts the TTL; a value that is
 * not an integer (e.g. a 1.0 JSON rate-limit entry) restarts the counter.
 */
export async function incrementStoredCounter(
  storage: SecondaryStorage,
  key: string,
  ttl: number,
  logger?: Logger,
): Promise<number> {
  if (storage.increment) return Number(await storage.increment(key, ttl));
  warnNonAtomicStorage(storage, logger);
  const raw = await storage.get(key);
  const current =
    typeof raw === "number" ? raw : typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : 0;
  const next = current + 1;
  await storage.set(key, String(next), ttl);
  return next;
}
