import { randomUUID } from "node:crypto";
import { betterAuth, type BetterAuthOptions } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { Redis } from "ioredis";
import { createAuth, type Auth, type LatchkeyOptions } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { redisStorage } from "@latchkey/redis-storage";
import { referenceRedisStorage } from "@latchkey/test-support/reference-redis-storage";
import { BASE_URL, SECRET, type Handler } from "./instances.ts";

export { referenceRedisStorage };
import { openSqlite, tempDatabaseFile, type SqliteConnection } from "./sqlite.ts";

/** A store as older ones were: no `getAndDelete`, no `increment`. */
function withoutAtomics<T extends { get: unknown; set: unknown; delete: unknown }>(storage: T): T {
  const { get, set, delete: remove } = storage;
  return { get, set, delete: remove } as T;
}

/** Both implementations on one SQLite file and one Redis key prefix. */
export interface RedisPair {
  db: SqliteConnection;
  redis: Redis;
  keyPrefix: string;
  reference: Handler;
  referenceAuth: ReturnType<typeof betterAuth>;
  latchkey: Handler;
  latchkeyAuth: Auth;
  /** The parsed JSON stored at `key` (without the prefix), or null. */
  stored(key: string): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * The reference first (its migrations make the tables, which with `secondaryStorage` leave out
 * `session` and `verification`), then Latchkey on the same file and the same Redis prefix.
 */
export async function createRedisPair(
  shared: Partial<BetterAuthOptions & LatchkeyOptions> = {},
  {
    atomic = true,
    reference: referenceExtra = {},
    latchkey: latchkeyExtra = {},
    plugins = {},
  }: {
    atomic?: boolean;
    /** Options for one side only (its plugins), laid over the shared ones. */
    reference?: Partial<BetterAuthOptions>;
    latchkey?: Partial<LatchkeyOptions>;
    /** Each side's own plugins (e.g. the reference's `oneTimeToken()` and Latchkey's). */
    plugins?: { reference?: BetterAuthOptions["plugins"]; latchkey?: LatchkeyOptions["plugins"] };
  } = {},
): Promise<RedisPair> {
  const { file, remove } = tempDatabaseFile();
  const redis = new Redis({ host: "127.0.0.1", port: 6379, maxRetriesPerRequest: 2 });
  const keyPrefix = `latchkey-compat:${randomUUID()}:`;
  const referenceDb = openSqlite(file);
  const common = {
    secret: SECRET,
    baseURL: BASE_URL,
    emailAndPassword: { enabled: true },
    logger: { disabled: true },
  };
  const { session, verification, rateLimit } = shared;
  const referenceOptions: BetterAuthOptions = {
    ...common,
    database: referenceDb,
    secondaryStorage: atomic
      ? referenceRedisStorage(redis, keyPrefix)
      : withoutAtomics(referenceRedisStorage(redis, keyPrefix)),
    rateLimit: rateLimit ?? { enabled: false },
    ...(session ? { session } : {}),
    ...(verification ? { verification } : {}),
    ...(plugins.reference ? { plugins: plugins.reference } : {}),
    ...referenceExtra,
  } as BetterAuthOptions;
  await (await getMigrations(referenceOptions)).runMigrations();
  const referenceAuth = betterAuth(referenceOptions);

  const latchkeyDb = openSqlite(file);
  const latchkeyAuth = createAuth({
    ...common,
    database: kyselyAdapter(latchkeyDb),
    secondaryStorage: atomic
      ? redisStorage({ client: redis, keyPrefix })
      : withoutAtomics(redisStorage({ client: redis, keyPrefix })),
    ...(rateLimit ? { rateLimit } : {}),
    ...(session ? { session } : {}),
    ...(verification ? { verification } : {}),
    ...(plugins.latchkey ? { plugins: plugins.latchkey } : {}),
    ...latchkeyExtra,
  } as LatchkeyOptions);
  await latchkeyAuth.createTables();

  const db = openSqlite(file);
  return {
    db,
    redis,
    keyPrefix,
    reference: (request) => referenceAuth.handler(request),
    referenceAuth,
    latchkey: (request) => latchkeyAuth.handler(request),
    latchkeyAuth,
    async stored(key) {
      const raw = await redis.get(`${keyPrefix}${key}`);
      return raw === null ? null : JSON.parse(raw);
    },
    async close() {
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
      for (const connection of [db, latchkeyDb, referenceDb]) connection.close();
      remove();
    },
  };
}
