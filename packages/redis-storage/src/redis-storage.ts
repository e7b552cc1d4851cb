import type { SecondaryStorage } from "@latchkey/core";
import type { Redis } from "ioredis";
import { GET_AND_DELETE_SCRIPT, INCREMENT_SCRIPT, isUnknownCommand, scriptRunner } from "./scripts.js";

/** Options of `redisStorage`, with the reference's names. */
export interface RedisStorageConfig {
  /** A connected ioredis client; it stays yours to close. */
  client: Redis;
  /**
   * Prepended to every key. Keep the default to share sessions and counters with Better Auth
   * nodes that use `@better-auth/redis-storage`.
   * @default "better-auth:"
   */
  keyPrefix?: string;
}

/** `SecondaryStorage` on Redis, plus key listing and clearing under the prefix. */
export interface RedisStorage extends Required<SecondaryStorage> {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttl?: number): Promise<void>;
  delete(key: string): Promise<void>;
  increment(key: string, ttl: number): Promise<number>;
  getAndDelete(key: string): Promise<string | null>;
  /** Every key under the prefix, prefix stripped (SCAN: best effort while keys change). */
  listKeys(): Promise<string[]>;
  /** Deletes every key under the prefix, page by page (not atomic; safe to repeat). */
  clear(): Promise<void>;
}

const SCAN_COUNT = 100;

/**
 * Secondary storage on Redis through ioredis, key for key and value for value the same as
 * Better Auth's `redisStorage()`, so Latchkey and Better Auth nodes can share one Redis.
 *
 * @example
 * ```ts
 * import { Redis } from "ioredis";
 * import { redisStorage } from "@latchkey/redis-storage";
 *
 * const auth = createAuth({ database, secondaryStorage: redisStorage({ client: new Redis() }) });
 * ```
 */
export function redisStorage(config: RedisStorageConfig): RedisStorage {
  const { client, keyPrefix = "better-auth:" } = config;
  const prefixed = (key: string): string => `${keyPrefix}${key}`;
  const increment = scriptRunner(client, INCREMENT_SCRIPT);
  const getThenDelete = scriptRunner(client, GET_AND_DELETE_SCRIPT);
  let hasGetDel = true;
  // SCAN's MATCH is a glob: a prefix holding *, ?, [ or \ must match itself only.
  const pattern = `${keyPrefix.replace(/[\\*?[\]]/g, "\\$&")}*`;

  async function* pages(): AsyncGenerator<string[]> {
    let cursor = "0";
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", pattern, "COUNT", SCAN_COUNT);
      cursor = next;
      if (keys.length) yield keys;
    } while (cursor !== "0");
  }

  // Plain closures, no `this`: callers may take a method off the object and call it alone.
  return {
    get: (key) => client.get(prefixed(key)),

    async set(key, value, ttl) {
      // As the reference: no TTL (or 0) keeps the key; a fractional TTL rounds up, never to 0.
      if (ttl !== undefined && ttl > 0) await client.set(prefixed(key), value, "EX", Math.ceil(ttl));
      else await client.set(prefixed(key), value);
    },

    async delete(key) {
      await client.del(prefixed(key));
    },

    async increment(key, ttl) {
      if (!Number.isInteger(ttl) || ttl <= 0)
        throw new TypeError("Redis storage increment ttl must be a positive integer");
      return Number(await increment(prefixed(key), ttl));
    },

    async getAndDelete(key) {
      if (hasGetDel) {
        try {
          return await client.getdel(prefixed(key));
        } catch (error) {
          if (!isUnknownCommand(error)) throw error;
          hasGetDel = false;
        }
      }
      return (await getThenDelete(prefixed(key))) as string | null;
    },

    async listKeys() {
      const keys = new Set<string>();
      for await (const page of pages()) for (const key of page) keys.add(key.slice(keyPrefix.length));
      return [...keys];
    },

    async clear() {
      for await (const page of pages()) await client.del(...page);
    },
  };
}
