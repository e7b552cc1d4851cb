import { kyselyAdapter } from "@latchkey/adapter-kysely";
import type { EmailLinkData, LatchkeyOptions } from "@latchkey/core";
import { redisStorage } from "@latchkey/redis-storage";
import type { Redis } from "ioredis";
import type { Pool } from "pg";
import { PUBLIC_ORIGIN, type NodeConfig } from "./node-config.ts";

/** What a node (or the test, to create the tables) builds its options from. */
export interface NodeResources {
  pool: Pool;
  /** Required unless `storage` is "postgres" and no rate limit uses Redis. */
  redis?: Redis;
  sendResetPassword?: (data: EmailLinkData) => Promise<void>;
}

/** Whether a configuration needs Redis at all. */
export const usesRedis = (config: NodeConfig): boolean =>
  config.storage !== "postgres" || config.rateLimit?.storage === "secondary-storage";

/** The `createAuth` options of one node; every node of a cluster builds the same ones. */
export function nodeAuthOptions(config: NodeConfig, resources: NodeResources): LatchkeyOptions {
  const { pool, redis, sendResetPassword } = resources;
  if (usesRedis(config) && !redis) throw new TypeError("this configuration needs a Redis client");
  const secondaryStorage =
    redis && usesRedis(config)
      ? redisStorage({ client: redis, keyPrefix: config.redisKeyPrefix })
      : undefined;
  const inDatabase = config.storage === "redis+postgres";
  const rateLimit = config.rateLimit;
  return {
    secret: config.secret,
    baseURL: PUBLIC_ORIGIN,
    database: kyselyAdapter(pool),
    // "postgres" mode with a Redis rate limit keeps sessions in PostgreSQL all the same.
    ...(secondaryStorage && { secondaryStorage }),
    emailAndPassword: { enabled: true, ...(sendResetPassword && { sendResetPassword }) },
    session: {
      ...(inDatabase && { storeSessionInDatabase: true }),
      ...(config.cookieCacheMaxAge !== undefined && {
        cookieCache: { enabled: true, maxAge: config.cookieCacheMaxAge },
      }),
    },
    ...(inDatabase && { verification: { storeInDatabase: true } }),
    advanced: { ipAddress: { ipAddressHeaders: ["x-forwarded-for"] } },
    rateLimit: rateLimit
      ? {
          enabled: true,
          window: rateLimit.window,
          max: rateLimit.max,
          storage: rateLimit.storage,
          // Readiness probes must never spend the budget the tests measure.
          customRules: { "/ok": false },
        }
      : { enabled: false },
    logger: { level: "warn" },
  };
}
