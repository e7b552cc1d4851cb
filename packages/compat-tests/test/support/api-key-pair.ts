import { apiKey as referenceApiKey } from "@better-auth/api-key";
import type { BetterAuthOptions } from "better-auth";
import type { LatchkeyOptions } from "@latchkey/core";
import { apiKey, type ApiKeyOptions } from "@latchkey/api-key";
import { CookieJar } from "./cookies.ts";
import { createPair, url, type Handler, type Pair } from "./instances.ts";

/** An `auth.api` function called loosely (both sides' endpoints by name). */
export type LooseApi = Record<string, (args: unknown) => Promise<unknown>>;

/** The reference's `apiKey()` and `@latchkey/api-key` on one SQLite file, with both `auth.api`s. */
export interface ApiKeyPair extends Omit<Pair, "referenceApi"> {
  referenceApi: LooseApi;
  latchkeyApi: LooseApi;
}

/** What differs between the sides: the same plugin options, plus extra core options for each. */
export interface ApiKeyPairOptions {
  plugin?: ApiKeyOptions;
  /** @default the pair's BASE_URL */
  baseURL?: string;
  reference?: Partial<BetterAuthOptions>;
  latchkey?: Partial<LatchkeyOptions>;
}

/**
 * `createPair` with the reference's `apiKey(options)` on one side and `@latchkey/api-key` with
 * the same options on the other: the reference's migrations make the `apikey` table, and
 * Latchkey's `createTables()` must find it complete.
 */
export async function createApiKeyPair(options: ApiKeyPairOptions = {}): Promise<ApiKeyPair> {
  const pair = await createPair({
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    // The reference's option types differ from ours only in the callbacks' context type.
    reference: { ...options.reference, plugins: [referenceApiKey(options.plugin as Parameters<typeof referenceApiKey>[0])] },
    latchkey: { ...options.latchkey, plugins: [apiKey(options.plugin)] },
  });
  return { ...pair, referenceApi: pair.referenceApi as LooseApi, latchkeyApi: pair.latchkeyAuth.api as unknown as LooseApi };
}

/** Runs `fn` on a new pair with one user signed up (through the reference), then closes the pair. */
export async function withApiKeyPair<T>(
  options: ApiKeyPairOptions,
  email: string,
  fn: (pair: ApiKeyPair, userId: string) => Promise<T>,
): Promise<T> {
  const pair = await createApiKeyPair(options);
  try {
    return await fn(pair, await new Browser(pair.reference).signUp(email));
  } finally {
    pair.close();
  }
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
