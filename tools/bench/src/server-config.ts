/** Which implementation a server process runs. */
export type Implementation = "latchkey" | "reference";

/** The database one server process uses: its own SQLite file or its own PostgreSQL database. */
export type DatabaseConfig =
  | {
      kind: "sqlite";
      file: string;
      /**
       * `journal_mode = WAL`, `synchronous = NORMAL` (what SQLite deployments run): a commit then
       * costs no fsync. Without it every write is ~3 fsyncs that block the process (better-sqlite3
       * is synchronous), and a figure with a write per request measures the disk, not the library.
       */
      wal?: boolean;
    }
  | { kind: "postgres"; url: string };

/**
 * Everything a bench server process is told, as JSON in `BENCH_CONFIG`. Both server entry
 * points read the same config and turn it into the same options of their own library.
 */
export interface ServerConfig {
  port: number;
  secret: string;
  baseURL: string;
  database: DatabaseConfig;
  /** `session.cookieCache.enabled`. */
  cookieCache: boolean;
  /** Secondary storage on this Redis under this key prefix; null for none. */
  redis: { url: string; keyPrefix: string } | null;
  /** Plugin ids to install (Latchkey ids; the reference maps them to its own factories). */
  plugins: string[];
  /**
   * Options for some of those plugins, keyed by Latchkey plugin id, passed to both libraries'
   * factories instead of `FACTORY_OPTIONS` (a scenario's own setup, e.g. EdDSA keys).
   */
  pluginOptions?: Record<string, unknown>;
  /**
   * A local Pwned Passwords range API (pwned-range.ts): Latchkey's have-i-been-pwned gets it as
   * `rangeURL`, the reference's requests to the public API are sent there. Null: the public API.
   */
  pwnedRangeURL?: string | null;
  /** Create missing tables at start. Off for cold starts, which reuse a prepared database. */
  migrate: boolean;
}

/** Reads `BENCH_CONFIG`; fails loudly when a server file is run by hand without it. */
export function readServerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const raw = env.BENCH_CONFIG;
  if (!raw) throw new TypeError("BENCH_CONFIG must be set (the bench sets it)");
  return JSON.parse(raw) as ServerConfig;
}
