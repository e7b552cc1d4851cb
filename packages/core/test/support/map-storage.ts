import type { SecondaryStorage } from "../../src/index.ts";

interface Entry {
  value: string;
  /** Epoch ms, or null for no expiry. */
  expiresAt: number | null;
}

/**
 * A secondary storage on a Map with Redis-like TTLs (seconds; a missing or 0 TTL keeps the
 * key, like the reference's Redis storage). `atomic: false` leaves out `increment` and
 * `getAndDelete`, the way an older store would. Every `set` is recorded with its TTL.
 */
export function mapStorage(options: { atomic?: boolean } = {}) {
  const data = new Map<string, Entry>();
  const sets: Array<{ key: string; ttl: number | undefined }> = [];
  const live = (key: string): Entry | undefined => {
    const entry = data.get(key);
    if (entry?.expiresAt !== null && entry && entry.expiresAt <= Date.now()) {
      data.delete(key);
      return undefined;
    }
    return entry;
  };
  const base = {
    get: async (key: string) => live(key)?.value ?? null,
    set: async (key: string, value: string, ttl?: number) => {
      sets.push({ key, ttl });
      data.set(key, { value, expiresAt: ttl ? Date.now() + ttl * 1000 : null });
    },
    delete: async (key: string) => {
      data.delete(key);
    },
  };
  const atomic = {
    getAndDelete: async (key: string) => {
      const value = live(key)?.value ?? null;
      data.delete(key);
      return value;
    },
    increment: async (key: string, ttl: number) => {
      const entry = live(key);
      const next = (entry ? Number(entry.value) : 0) + 1;
      data.set(key, { value: String(next), expiresAt: entry ? entry.expiresAt : Date.now() + ttl * 1000 });
      return next;
    },
  };
  const storage: SecondaryStorage = options.atomic === false ? base : { ...base, ...atomic };
  return {
    storage,
    sets,
    /** The parsed JSON at `key`, or undefined. */
    json: (key: string): unknown => {
      const value = live(key)?.value;
      return value === undefined ? undefined : JSON.parse(value);
    },
    has: (key: string) => live(key) !== undefined,
    /** Seconds left on `key` (null: no expiry; undefined: absent). */
    ttl: (key: string): number | null | undefined => {
      const entry = live(key);
      if (!entry) return undefined;
      return entry.expiresAt === null ? null : Math.round((entry.expiresAt - Date.now()) / 1000);
    },
    keys: () => [...data.keys()].filter((k) => live(k) !== undefined),
    raw: (key: string, value: string, ttl?: number) => base.set(key, value, ttl),
  };
}
