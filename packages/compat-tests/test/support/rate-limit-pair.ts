import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { createAuth, type Auth, type LatchkeyOptions, type SecondaryStorage } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { capture, type Captured } from "./capture.ts";
import { BASE_URL, SECRET, url, type Handler } from "./instances.ts";
import { openSqlite, tempDatabaseFile, type SqliteConnection } from "./sqlite.ts";

/** The options both sides get, with rate limiting switched on. */
export type RateLimitSetup = Pick<
  LatchkeyOptions,
  "rateLimit" | "advanced" | "secondaryStorage" | "disabledPaths"
>;

/** Reference and Latchkey with the same rate-limit options on one SQLite file. */
export interface RatePair {
  reference: Handler;
  latchkey: Handler;
  latchkeyAuth: Auth;
  /** The tests' own connection (reads and clears the `rateLimit` table). */
  db: SqliteConnection;
  /** What Latchkey logged at warn level and above. */
  latchkeyLogs: string[];
  close(): void;
}

/**
 * Builds both with `rateLimit.enabled: true` plus `setup` (the reference's tables, including
 * `rateLimit` with `storage: "database"`, come from its own migrations). The reference keeps
 * its memory counters in one module-wide map, so tests give every scenario its own client
 * addresses.
 */
export async function ratePair(setup: RateLimitSetup = {}): Promise<RatePair> {
  const { file, remove } = tempDatabaseFile();
  const shared = {
    secret: SECRET,
    baseURL: BASE_URL,
    emailAndPassword: { enabled: true },
    ...setup,
    rateLimit: { enabled: true, ...setup.rateLimit },
  };
  const referenceDb = openSqlite(file);
  const referenceOptions = { ...shared, database: referenceDb, logger: { disabled: true } } as Parameters<
    typeof betterAuth
  >[0];
  await (await getMigrations(referenceOptions)).runMigrations();
  const reference = betterAuth(referenceOptions);
  const latchkeyDb = openSqlite(file);
  const latchkeyLogs: string[] = [];
  const latchkeyAuth = createAuth({
    ...shared,
    database: kyselyAdapter(latchkeyDb),
    logger: { log: (level, message) => void latchkeyLogs.push(`${level}: ${message}`) },
  });
  await latchkeyAuth.createTables();
  const db = openSqlite(file);
  return {
    reference: (request) => reference.handler(request),
    latchkey: (request) => latchkeyAuth.handler(request),
    latchkeyAuth,
    db,
    latchkeyLogs,
    close() {
      for (const connection of [db, latchkeyDb, referenceDb]) connection.close();
      remove();
    },
  };
}

/** One request of a burst: path, client address, and optionally method and JSON body. */
export interface Hit {
  path: string;
  ip: string;
  method?: string;
  body?: unknown;
}

/** A Request for `hit`, as a client behind a proxy that sets X-Forwarded-For would send it. */
export function hitRequest(hit: Hit): Request {
  const headers: Record<string, string> = { "x-forwarded-for": hit.ip };
  if (hit.body !== undefined) headers["content-type"] = "application/json";
  return new Request(url(hit.path), {
    method: hit.method ?? (hit.body === undefined ? "GET" : "POST"),
    headers,
    body: hit.body === undefined ? undefined : JSON.stringify(hit.body),
  });
}

/** Sends the hits one after another and captures every response. */
export async function run(handler: Handler, hits: Hit[]): Promise<Captured[]> {
  const out: Captured[] = [];
  for (const hit of hits) out.push(await capture(await handler(hitRequest(hit))));
  return out;
}

/** Status and X-Retry-After of each response, for compact pins. */
export const summary = (captured: Captured[]): Array<[number, string | null]> =>
  captured.map((c) => [c.status, c.headers["x-retry-after"]]);

/**
 * A Redis-like secondary storage on a Map (TTLs in seconds; `increment` as INCR + EXPIRE NX,
 * an error on a non-integer value as Redis answers). One object can back both sides.
 */
export function sharedKV(options: { increment?: boolean } = {}) {
  const data = new Map<string, { value: string; expiresAt: number | null }>();
  const live = (key: string) => {
    const entry = data.get(key);
    if (entry && entry.expiresAt !== null && entry.expiresAt <= Date.now()) data.delete(key);
    return data.get(key);
  };
  const storage: SecondaryStorage = {
    get: (key) => live(key)?.value ?? null,
    set: (key, value, ttl) => void data.set(key, { value, expiresAt: ttl ? Date.now() + ttl * 1000 : null }),
    delete: (key) => void data.delete(key),
    getAndDelete: (key) => {
      const value = live(key)?.value ?? null;
      data.delete(key);
      return value;
    },
  };
  if (options.increment !== false) {
    storage.increment = (key, ttl) => {
      const entry = live(key);
      if (entry && !/^-?\d+$/.test(entry.value))
        throw new Error("ERR value is not an integer or out of range");
      const next = (entry ? Number(entry.value) : 0) + 1;
      data.set(key, { value: String(next), expiresAt: entry ? entry.expiresAt : Date.now() + ttl * 1000 });
      return next;
    };
  } else {
    delete storage.getAndDelete;
  }
  return {
    storage,
    value: (key: string) => live(key)?.value,
    put: (key: string, value: string, ttl: number) => storage.set(key, value, ttl),
  };
}
