import type { SecondaryStorage } from "../../src/index.ts";

/**
 * A Redis-like secondary storage on a Map: TTLs in seconds, and an `increment` that behaves as
 * INCR plus EXPIRE NX (TTL set on creation only; a non-integer value is an error, as Redis
 * answers "ERR value is not an integer or out of range"). `increment: false` leaves it out.
 */
export function redisLikeStorage(options: { increment?: boolean } = {}) {
  const data = new Map<string, { value: string; expiresAt: number | null }>();
  const calls: string[] = [];
  const live = (key: string) => {
    const entry = data.get(key);
    if (entry && entry.expiresAt !== null && entry.expiresAt <= Date.now()) data.delete(key);
    return data.get(key);
  };
  const storage: SecondaryStorage = {
    get: async (key) => {
      calls.push(`get ${key}`);
      return live(key)?.value ?? null;
    },
    set: async (key, value, ttl) => {
      calls.push(`set ${key} ${ttl}`);
      data.set(key, { value, expiresAt: ttl ? Date.now() + ttl * 1000 : null });
    },
    delete: async (key) => {
      calls.push(`delete ${key}`);
      data.delete(key);
    },
  };
  if (options.increment !== false) {
    storage.increment = async (key, ttl) => {
      calls.push(`increment ${key} ${ttl}`);
      const entry = live(key);
      if (entry && !/^-?\d+$/.test(entry.value))
        throw new Error("ERR value is not an integer or out of range");
      const next = (entry ? Number(entry.value) : 0) + 1;
      data.set(key, { value: String(next), expiresAt: entry ? entry.expiresAt : Date.now() + ttl * 1000 });
      return next;
    };
  }
  return {
    storage,
    calls,
    value: (key: string) => live(key)?.value,
    ttl: (key: string) => {
      const at = live(key)?.expiresAt;
      return at === undefined ? undefined : at === null ? null : Math.round((at - Date.now()) / 1000);
    },
    put: (key: string, value: string, ttl?: number) =>
      data.set(key, { value, expiresAt: ttl ? Date.now() + ttl * 1000 : null }),
  };
}
