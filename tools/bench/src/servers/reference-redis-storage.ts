import type { BetterAuthOptions } from "better-auth";
import type { Redis } from "ioredis";

const INCREMENT = `
local value = redis.call("INCR", KEYS[1])
if value == 1 then
  redis.call("EXPIRE", KEYS[1], ARGV[1])
end
return value
`;

/**
 * The reference's `@better-auth/redis-storage` (`redisStorage({ client, keyPrefix })`), written
 * out as packages/compat-tests/test/support/redis-pair.ts does, because that package has no
 * 1.7.6 release to install: `<prefix><key>`, SETEX when a TTL is given, GETDEL, INCR + EXPIRE.
 */
export function referenceRedisStorage(
  client: Redis,
  keyPrefix: string,
): NonNullable<BetterAuthOptions["secondaryStorage"]> {
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
    getAndDelete: (k) => client.call("GETDEL", key(k)) as Promise<string | null>,
    increment: async (k, ttl) => Number(await client.eval(INCREMENT, 1, key(k), ttl)),
  };
}
