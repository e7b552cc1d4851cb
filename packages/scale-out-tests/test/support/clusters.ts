// The clusters the suite runs on, started once by global-setup.ts and shared by the test files
// (every test makes its own users and client addresses, so they never meet).
import { inject } from "vitest";
import type { ClusterInfo, ClusterOptions } from "./cluster.ts";
import type { StorageMode } from "./node-config.ts";
import type { NodeAddress } from "./node-process.ts";
import { waitForResetToken } from "./outbox.ts";

/** Cookie-cache lifetime of the `cache` cluster, in seconds. */
export const CACHE_MAX_AGE = 2;
/** The rate-limit clusters' default rule: `LIMIT` requests per `WINDOW` seconds. */
export const LIMIT = 10;
// Long enough that a whole burst lands in one window, whatever the machine's load.
export const WINDOW = 60;

export const CLUSTERS = {
  /** Sessions and verification values in Redis only. */
  redis: { storage: "redis" },
  /** In Redis and PostgreSQL (`storeSessionInDatabase`, `verification.storeInDatabase`). */
  "redis+postgres": { storage: "redis+postgres" },
  /** In PostgreSQL only. */
  postgres: { storage: "postgres" },
  cache: { storage: "redis", cookieCacheMaxAge: CACHE_MAX_AGE },
  "rate-limit-secondary-storage": {
    storage: "redis",
    rateLimit: { window: WINDOW, max: LIMIT, storage: "secondary-storage" },
  },
  "rate-limit-database": {
    storage: "postgres",
    rateLimit: { window: WINDOW, max: LIMIT, storage: "database" },
  },
  "rate-limit-memory": { storage: "redis", rateLimit: { window: WINDOW, max: LIMIT, storage: "memory" } },
} as const satisfies Record<string, ClusterOptions>;

export type ClusterName = keyof typeof CLUSTERS;

/** The clusters named after their storage mode: the session and reset tests run on each. */
export const STORAGE_MODES = [
  "redis",
  "redis+postgres",
  "postgres",
] as const satisfies readonly StorageMode[];

declare module "vitest" {
  export interface ProvidedContext {
    scaleOutClusters: Record<ClusterName, ClusterInfo>;
  }
}

/** A running cluster as a test sees it. */
export interface ClusterHandle extends ClusterInfo {
  /** The newest reset token mailed to `email` by either node. */
  resetToken(email: string): Promise<string>;
}

/** The shared cluster called `name`. */
export function cluster(name: ClusterName): ClusterHandle {
  const info = inject("scaleOutClusters")[name];
  return { ...info, resetToken: (email) => waitForResetToken(info.config.outboxFile, email) };
}

export type { NodeAddress };
