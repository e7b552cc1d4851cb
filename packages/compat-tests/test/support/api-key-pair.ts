import { apiKey as referenceApiKey } from "@better-auth/api-key";
import { betterAuth, type BetterAuthOptions } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { createAuth, type Auth, type LatchkeyOptions } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { apiKey, type ApiKeyOptions } from "@latchkey/api-key";
import { CookieJar } from "./cookies.ts";
import { BASE_URL, SECRET, url, type Handler } from "./instances.ts";
import { openSqlite, tempDatabaseFile, type SqliteConnection } from "./sqlite.ts";

/** An `auth.api` function called loosely (both sides' endpoints by name). */
export type LooseApi = Record<string, (args: unknown) => Promise<unknown>>;

/** The reference's `apiKey()` and `@latchkey/api-key` on one SQLite file, with both `auth.api`s. */
export interface ApiKeyPair {
  db: SqliteConnection;
  reference: Handler;
  latchkey: Handler;
  referenceApi: LooseApi;
  latchkeyApi: LooseApi;
  latchkeyAuth: Auth;
  close(): void;
}

/** What differs between the sides: the same plugin options, plus extra core options for each. */
export interface ApiKeyPairOptions {
  plugin?: ApiKeyOptions;
  /** @default BASE_URL */
  baseURL?: string;
  reference?: Partial<BetterAuthOptions>;
  latchkey?: Partial<LatchkeyOptions>;
}

/**
 * Builds the reference with its `apiKey(options)` and its own migrations, then Latchkey with
 * `apiKey(options)` on the same file (its `createTables()` must add nothing).
 */
export async function createApiKeyPair(options: ApiKeyPairOptions = {}): Promise<ApiKeyPair> {
  const { file, remove } = tempDatabaseFile();
  const referenceDb = openSqlite(file);
  const referenceOptions = {
    database: referenceDb,
    secret: SECRET,
    baseURL: options.baseURL ?? BASE_URL,
    emailAndPassword: { enabled: true },
    rateLimit: { enabled: false },
    logger: { disabled: true },
    ...options.reference,
    // The reference's option types differ from ours only in the callbacks' context type.
    plugins: [referenceApiKey(options.plugin as Parameters<typeof referenceApiKey>[0])],
  };
  await (await getMigrations(referenceOptions)).runMigrations();
  const reference = betterAuth(referenceOptions);
  const latchkeyDb = openSqlite(file);
  const latchkeyAuth = createAuth({
    database: kyselyAdapter(latchkeyDb),
    secret: SECRET,
    baseURL: options.baseURL ?? BASE_URL,
    emailAndPassword: { enabled: true },
    logger: { disabled: true },
    ...options.latchkey,
    plugins: [apiKey(options.plugin)],
  });
  await latchkeyAuth.createTables();
  const db = openSqlite(file);
  return {
    db,
    reference: (request) => reference.handler(request),
    latchkey: (request) => latchkeyAuth.handler(request),
    referenceApi: reference.api as unknown as LooseApi,
    latchkeyApi: latchkeyAuth.api as unknown as LooseApi,
    latchkeyAuth,
    close() {
      for (const connection of [db, latchkeyDb, referenceDb]) connection.close();
      remove();
    },
  };
}

/** The password of every user the api-key compat tests sign up. */
export const PASSWORD = "password-1234";

export interface Answer {
  status: number;
  json: unknown;
}

/** A browser with a cookie jar in front of one handler. */
export class Browser {
  readonly jar = new CookieJar();
  constructor(public handler: Handler) {}

  async send(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const all: Record<string, string> = { ...headers };
    const cookie = this.jar.header();
    if (cookie) all.cookie = cookie;
    const request =
      body === undefined
        ? new Request(url(path), { method: "GET", headers: all })
        : new Request(url(path), { method: "POST", headers: { "content-type": "application/json", ...all }, body: JSON.stringify(body) });
    const response = await this.handler(request);
    this.jar.store(response);
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : null };
  }

  async signUp(email: string): Promise<string> {
    const answer = await this.send("/sign-up/email", { email, password: PASSWORD, name: email });
    return (answer.json as { user: { id: string } }).user.id;
  }
}

/** Makes a key from server code on one side (server-only fields allowed). */
export async function serverKey(api: LooseApi, body: Record<string, unknown>): Promise<{ id: string; key: string; expiresAt?: string | Date | null }> {
  return (await api.createApiKey!({ body })) as { id: string; key: string; expiresAt?: string | Date | null };
}

export interface Verdict {
  valid: boolean;
  error: { code: string } | null;
  key: Record<string, unknown> | null;
}
export const verify = async (api: LooseApi, body: Record<string, unknown>): Promise<Verdict> => (await api.verifyApiKey!({ body })) as Verdict;


/** An in-memory secondary storage that yields on every call, as a network store would. */
export function yieldingStore() {
  const values = new Map<string, string>();
  const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    get: async (key: string) => (await tick(), values.get(key) ?? null),
    set: async (key: string, value: string) => {
      await tick();
      values.set(key, value);
    },
    delete: async (key: string) => {
      await tick();
      values.delete(key);
    },
    getAndDelete: async (key: string) => {
      await tick();
      const value = values.get(key) ?? null;
      values.delete(key);
      return value;
    },
    // Read and write in one synchronous step after the yield: atomic, like Redis INCR.
    increment: async (key: string) => {
      await tick();
      const next = Number(values.get(key) ?? 0) + 1;
      values.set(key, String(next));
      return next;
    },
  };
}
