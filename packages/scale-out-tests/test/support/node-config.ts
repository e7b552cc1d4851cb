// Shared by the test process and the node processes it starts: what one node is told through its environment.

/** Where sessions and verification values live. */
export type StorageMode =
  /** Redis only (the reference's default with `secondaryStorage`). */
  | "redis"
  /** Redis and PostgreSQL: `storeSessionInDatabase` and `verification.storeInDatabase`. */
  | "redis+postgres"
  /** PostgreSQL only, no `secondaryStorage`. */
  | "postgres";

/** How every node of one cluster is configured; both nodes get the same value. */
export interface NodeConfig {
  secret: string;
  /** A `postgres://` URL of the cluster's own database. */
  databaseURL: string;
  redisURL: string;
  /** Every Redis key of the cluster starts with it. */
  redisKeyPrefix: string;
  storage: StorageMode;
  /** Seconds of `session.cookieCache.maxAge`; absent: the cache is off. */
  cookieCacheMaxAge?: number;
  /** The default rule and its storage; absent: rate limiting is off. */
  rateLimit?: { window: number; max: number; storage: "secondary-storage" | "database" | "memory" };
  /** Run `createTables()` before listening: set for the cluster's first node only. */
  createTables?: boolean;
  /** File the nodes append `{"email","token"}` lines to from `sendResetPassword` (test-only channel). */
  outboxFile: string;
}

/** The environment variable a node reads its `NodeConfig` from, as JSON. */
export const NODE_CONFIG_ENV = "LATCHKEY_SCALE_OUT_CONFIG";

/** The stdout line a node prints once it listens, followed by its port. */
export const READY_LINE = "latchkey-node-listening ";

/**
 * The address both nodes are configured with: the load balancer's, in a real deployment.
 * The test sends it as `Origin` on POSTs, as a page of the app would.
 */
export const PUBLIC_ORIGIN = "http://auth.scale-out.test";

/** Reads and checks the configuration a node was started with. */
export function readNodeConfig(env: NodeJS.ProcessEnv): NodeConfig {
  const raw = env[NODE_CONFIG_ENV];
  if (!raw) throw new TypeError(`${NODE_CONFIG_ENV} is not set`);
  const config = JSON.parse(raw) as NodeConfig;
  for (const key of [
    "secret",
    "databaseURL",
    "redisURL",
    "redisKeyPrefix",
    "storage",
    "outboxFile",
  ] as const) {
    if (typeof config[key] !== "string" || !config[key])
      throw new TypeError(`${NODE_CONFIG_ENV}.${key} is missing`);
  }
  return config;
}
