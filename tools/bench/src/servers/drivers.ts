import type BetterSqlite3 from "better-sqlite3";
import type { Redis } from "ioredis";
import type { Pool } from "pg";
import type { DatabaseConfig, ServerConfig } from "../server-config.js";

// Drivers load only when the config asks for them: a SQLite server that imported pg and ioredis
// too would add their load time to every cold start and their size to every RSS figure.

/** The raw driver handle both libraries accept as `database`: a better-sqlite3 file or a pg Pool. */
export async function openDatabase(config: DatabaseConfig): Promise<BetterSqlite3.Database | Pool> {
  if (config.kind === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(config.file);
    if (config.wal) {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
    }
    return db;
  }
  const { default: pg } = await import("pg");
  return new pg.Pool({ connectionString: config.url });
}

/** The ioredis client of the secondary storage, or null when the config has none. */
export async function openRedis(config: ServerConfig): Promise<Redis | null> {
  if (!config.redis) return null;
  const { Redis } = await import("ioredis");
  return new Redis(config.redis.url, { maxRetriesPerRequest: 2 });
}
