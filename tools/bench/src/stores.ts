import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import type { DatabaseConfig } from "./server-config.js";

const POSTGRES_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = "redis://127.0.0.1:6379";

/** Fresh storage for each server, and the clean-up of all of it at the end. */
export interface Stores {
  /** A new SQLite file in the run's temp directory. */
  sqlite(name: string): DatabaseConfig;
  /** A new PostgreSQL database `lk_bench_<random>`, dropped by `cleanup()`. */
  postgres(): Promise<DatabaseConfig>;
  /** A new random Redis key prefix, whose keys `cleanup()` deletes. */
  redis(): { url: string; keyPrefix: string };
  /** Null when the service answers; otherwise why the figures that need it are skipped. */
  unavailable: { postgres: string | null; redis: string | null };
  cleanup(): Promise<void>;
}

const random = (): string => randomBytes(6).toString("hex");

/** Opens the run's storage: checks PostgreSQL and Redis once, so a figure can be skipped with a reason. */
export async function openStores(): Promise<Stores> {
  const dir = mkdtempSync(join(tmpdir(), "latchkey-bench-"));
  const databases: string[] = [];
  const prefixes: string[] = [];
  const unavailable = { postgres: await probePostgres(), redis: await probeRedis() };
  let files = 0;
  return {
    unavailable,
    sqlite: (name) => ({ kind: "sqlite", file: join(dir, `${name}-${++files}.db`) }),
    async postgres() {
      const name = `lk_bench_${random()}`;
      await withPostgres((client) => client.query(`CREATE DATABASE ${name}`));
      databases.push(name);
      return { kind: "postgres", url: `postgres://postgres@127.0.0.1:5432/${name}` };
    },
    redis() {
      const keyPrefix = `lk_bench:${random()}:`;
      prefixes.push(keyPrefix);
      return { url: REDIS_URL, keyPrefix };
    },
    async cleanup() {
      if (databases.length) {
        await withPostgres(async (client) => {
          // WITH (FORCE), PostgreSQL 13+: a pool a crashed server left behind must not keep it alive.
          for (const name of databases) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        });
      }
      if (prefixes.length) await deleteRedisKeys(prefixes);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function withPostgres<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function probePostgres(): Promise<string | null> {
  try {
    await withPostgres((client) => client.query("SELECT 1"));
    return null;
  } catch (error) {
    return `PostgreSQL at 127.0.0.1:5432 did not answer (${(error as Error).message})`;
  }
}

async function probeRedis(): Promise<string | null> {
  const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 3_000 });
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return `Redis at 127.0.0.1:6379 did not answer (${(error as Error).message})`;
  } finally {
    client.disconnect();
  }
}

async function deleteRedisKeys(prefixes: string[]): Promise<void> {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
  try {
    for (const prefix of prefixes) {
      let cursor = "0";
      do {
        const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
        if (keys.length) await client.del(...keys);
        cursor = next;
      } while (cursor !== "0");
    }
  } finally {
    await client.quit();
  }
}
