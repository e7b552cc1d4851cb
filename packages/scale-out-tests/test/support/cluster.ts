import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import type { NodeConfig } from "./node-config.ts";
import { spawnNode, type NodeAddress, type NodeProcess } from "./node-process.ts";
import { createDatabase, type FreshDatabase } from "./postgres.ts";

const REDIS_URL = process.env.SCALE_OUT_REDIS_URL ?? "redis://127.0.0.1:6379";

/** What a test chooses about a cluster; the rest (secret, database, prefix, outbox) is made fresh. */
export type ClusterOptions = Pick<NodeConfig, "storage" | "cookieCacheMaxAge" | "rateLimit">;

/** What the tests get to know about a running cluster (serializable: it crosses into test workers). */
export interface ClusterInfo {
  a: NodeAddress;
  b: NodeAddress;
  config: NodeConfig;
}

/** Two running nodes over one fresh database and one Redis key prefix. */
export interface Cluster {
  info: ClusterInfo;
  nodes: NodeProcess[];
  /** Stops both nodes, then removes the database, the Redis keys and the outbox. */
  close(): Promise<void>;
}

/**
 * Creates `lk_scale_<random>` and starts nodes A and B; A creates the tables before it listens. Whatever was set up is torn down again when a step fails, so a failed start leaves
 * nothing behind. (This runs in vitest's global setup, which does not resolve the workspace's
 * source condition: only the nodes import `@latchkey/*`.)
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const cleanups: Array<() => Promise<unknown>> = [];
  const close = async (): Promise<void> => {
    // Last in, first out: nodes stop before their keys and database go.
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((error: unknown) => console.error("scale-out cleanup failed:", error));
    }
  };
  try {
    const database: FreshDatabase = await createDatabase();
    cleanups.push(() => database.drop());
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    cleanups.push(() => redis.quit());
    const dir = await mkdtemp(join(tmpdir(), "lk-scale-out-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const config: NodeConfig = {
      ...options,
      secret: randomBytes(32).toString("base64url"),
      databaseURL: database.url,
      redisURL: REDIS_URL,
      redisKeyPrefix: `lk-scale-${randomBytes(6).toString("hex")}:`,
      outboxFile: join(dir, "outbox.jsonl"),
    };
    cleanups.push(() => deleteKeys(redis, config.redisKeyPrefix));
    // Both boot at once; B gets its first request (the readiness probe) only after A has
    // created the tables and answered, so it never sees a half-made schema.
    const a = spawnNode("A", { ...config, createTables: true });
    cleanups.push(() => a.stop());
    const b = spawnNode("B", config);
    cleanups.push(() => b.stop());
    await a.ready();
    await b.ready();
    return { info: { a: a.address, b: b.address, config }, nodes: [a, b], close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Removes every key under `prefix` (what `redisStorage().clear()` does, without importing it here). */
async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== "0");
}
