import { betterAuth, type BetterAuthOptions } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { createAuth, type Auth, type LatchkeyOptions } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { openSqlite, tempDatabaseFile, type SqliteConnection } from "./sqlite.ts";

/** One secret and base URL for both: the session cookie signature and name depend on them. */
export const SECRET = "latchkey-compat-secret-0123456789-abcdefghijklmnop";
export const BASE_URL = "http://localhost:3000";
export const BASE_PATH = "/api/auth";

export type Handler = (request: Request) => Promise<Response>;

/** Both implementations on one database file, plus a third connection for the tests' own reads. */
export interface Pair {
  file: string;
  /** The tests' own connection: counts rows, snapshots and restores tables. */
  db: SqliteConnection;
  reference: Handler;
  latchkey: Handler;
  latchkeyAuth: Auth;
  /** The reference's `auth.api` (its server-only endpoints are reached only through it). */
  referenceApi: unknown;
  /** The reference's `auth.$context` (for its exported helpers that take an endpoint context). */
  referenceContext: Promise<unknown>;
  close(): void;
}

export interface PairOptions {
  /**
   * Turn the origin and CSRF checks on. vitest sets NODE_ENV=test, under which both
   * implementations skip them by default (reference core.md §11.1).
   */
  originChecks?: boolean;
  /** Base URL of both instances. @default BASE_URL */
  baseURL?: string;
  /** Extra options for the reference only (its plugins, social providers), laid over the shared ones. */
  reference?: Partial<BetterAuthOptions>;
  /** Extra options for Latchkey only (its plugins), laid over the shared ones. */
  latchkey?: Partial<LatchkeyOptions>;
}

/**
 * Builds the reference first, with tables made by its own migrations, then Latchkey on the
 * same file: Latchkey must run on a database the reference wrote, as the spec requires.
 */
export async function createPair(options: PairOptions = {}): Promise<Pair> {
  const { file, remove } = tempDatabaseFile();
  const baseURL = options.baseURL ?? BASE_URL;
  const advanced = options.originChecks ? { disableOriginCheck: false, disableCSRFCheck: false } : undefined;
  const referenceDb = openSqlite(file);
  const referenceOptions = {
    database: referenceDb,
    secret: SECRET,
    baseURL,
    emailAndPassword: { enabled: true },
    rateLimit: { enabled: false },
    advanced,
    logger: { disabled: true },
    ...options.reference,
  };
  await (await getMigrations(referenceOptions)).runMigrations();
  const reference = betterAuth(referenceOptions);

  const latchkeyDb = openSqlite(file);
  const latchkeyAuth = createAuth({
    database: kyselyAdapter(latchkeyDb),
    secret: SECRET,
    baseURL,
    emailAndPassword: { enabled: true },
    advanced,
    logger: { disabled: true },
    ...options.latchkey,
  });
  // On tables the reference created this must add nothing; it is what an operator would run.
  await latchkeyAuth.createTables();

  const db = openSqlite(file);
  return {
    file,
    db,
    reference: (request) => reference.handler(request),
    latchkey: (request) => latchkeyAuth.handler(request),
    latchkeyAuth,
    referenceApi: reference.api,
    referenceContext: reference.$context,
    close() {
      for (const connection of [db, latchkeyDb, referenceDb]) connection.close();
      remove();
    },
  };
}

/** A URL under the base path, e.g. `url("/sign-in/email")`. */
export const url = (path: string, baseURL = BASE_URL): string => `${baseURL}${BASE_PATH}${path}`;

/** A JSON POST, the way the reference's client sends one. */
export function jsonPost(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(url(path), {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}
