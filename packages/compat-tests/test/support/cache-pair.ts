import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import {
  createAuth,
  endpoint,
  setCookieCache,
  type LatchkeyPlugin,
  type SessionWithUser,
} from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { BASE_URL, SECRET, type Handler } from "./instances.ts";
import { openSqlite, tempDatabaseFile, type SqliteConnection } from "./sqlite.ts";

export type Strategy = "compact" | "jwt" | "jwe";

/**
 * A Latchkey-only test route: writes the cache cookie for the posted session and user, so a
 * test can have Latchkey encode exactly the data the reference encoded.
 */
const cacheWriter: LatchkeyPlugin = {
  id: "cache-writer",
  endpoints: {
    writeCookieCache: endpoint("/test/write-cookie-cache", { method: "POST" }, async (ctx) => {
      await setCookieCache(ctx, ctx.body as unknown as SessionWithUser, false);
      return null;
    }),
  },
};

/** Both implementations on one SQLite file, the cache on with one strategy, a `bio` user field. */
export interface CachePair {
  db: SqliteConnection;
  reference: Handler;
  latchkey: Handler;
  /** Deletes the stored session with this token: only a cache can answer for it afterwards. */
  dropSession(token: string): void;
  close(): void;
}

export async function createCachePair(strategy: Strategy): Promise<CachePair> {
  const { file, remove } = tempDatabaseFile();
  const shared = {
    secret: SECRET,
    baseURL: BASE_URL,
    emailAndPassword: { enabled: true },
    user: { additionalFields: { bio: { type: "string" as const, required: false } } },
    session: { cookieCache: { enabled: true, strategy } },
    logger: { disabled: true },
  };
  const referenceDb = openSqlite(file);
  const referenceOptions = { ...shared, database: referenceDb, rateLimit: { enabled: false } };
  await (await getMigrations(referenceOptions)).runMigrations();
  const reference = betterAuth(referenceOptions);
  const latchkeyDb = openSqlite(file);
  const latchkey = createAuth({ ...shared, database: kyselyAdapter(latchkeyDb), plugins: [cacheWriter] });
  await latchkey.createTables();
  const db = openSqlite(file);
  return {
    db,
    reference: (request) => reference.handler(request),
    latchkey: (request) => latchkey.handler(request),
    dropSession: (token) => {
      db.prepare('DELETE FROM "session" WHERE "token" = ?').run([token]);
    },
    close() {
      for (const connection of [db, latchkeyDb, referenceDb]) connection.close();
      remove();
    },
  };
}
