/** The Redis commands the reference's storage sends (ioredis's signatures, as far as used). */
export interface RedisCommands {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<unknown>;
  setex(key: string, seconds: number, value: string): Promise<unknown>;
  del(key: string): Promise<number>;
  call(command: string, ...args: string[]): Promise<unknown>;
  eval(script: string, keys: number, ...args: Array<string | number>): Promise<unknown>;
}

/** The secondary-storage interface, as Better Auth 1.7.6 declares it. */
export interface ReferenceSecondaryStorage {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttl?: number): Promise<void>;
  delete(key: string): Promise<void>;
  getAndDelete(key: string): Promise<string | null>;
  increment(key: string, ttl: number): Promise<number>;
}

const INCREMENT = `
local value = redis.call("INCR", KEYS[1])
if value == 1 then
  redis.call("EXPIRE", KEYS[1], ARGV[1])
end
return value
`;

/**
 * The reference's `@better-auth/redis-storage` 1.7.5 (`redisStorage({ client, keyPrefix })`),
 * written out because the package has no 1.7.6 release to install: `<prefix><key>`, SETEX
 * when a TTL is given, GETDEL, and INCR + EXPIRE-on-first in a Lua script. Kept apart from
 * Latchkey's package so the compat tests show the two agree on keys rather than assume it,
 * and the bench runs the reference on its own storage. A subpath of its own: the bench bundles
 * it into the reference server, which must not carry the rest of this package.
 */
export function referenceRedisStorage(client: RedisCommands, keyPrefix: string): ReferenceSecondaryStorage {
  const key = (k: string): string => `${keyPrefix}${k}`;
  return {
    get: (k) => client.get(key(k)),
    set: async (k, value, ttl) => {
      if (ttl !== undefined && ttl > 0) await client.setex(key(k), ttl, value);
      else await client.set(key(k), value);
    },
    delete: async (k) => {
      await client.del(key(k));
    },
    getAndDelete: async (k) => (await client.call("GETDEL", key(k))) as string | null,
    increment: async (k, ttl) => Number(await client.eval(INCREMENT, 1, key(k), ttl)),
  };
}
