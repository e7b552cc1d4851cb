import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import {
  createAuth,
  memoryAdapter,
  type LatchkeyOptions,
  type OAuthProvider,
  type Row,
} from "@latchkey/core";
import { Browser } from "@latchkey/test-support";
import { onTestFinished } from "vitest";
import type { FakeProvider } from "./fake-provider.ts";

export const BASE = "http://localhost:3000";
export const AUTH = `${BASE}/api/auth`;
export const SECRET = "a-test-secret-that-is-long-enough-0123456789";
export const CLIENT = { clientId: "client-id-1", clientSecret: "client-secret-1" };

/**
 * A Latchkey instance with `provider` configured, on the memory store (or a SQLite file, closed
 * and removed when the calling test finishes; `cleanup` does it earlier).
 */
export async function providerInstance(
  provider: OAuthProvider<never> | OAuthProvider,
  options: Partial<LatchkeyOptions> & { sqlite?: boolean } = {},
) {
  const { sqlite, ...rest } = options;
  const store: Record<string, Row[]> = {};
  let cleanup = () => {};
  let database: LatchkeyOptions["database"] = memoryAdapter(store);
  if (sqlite) {
    const dir = mkdtempSync(join(tmpdir(), "latchkey-social-"));
    const db = new Database(join(dir, "auth.sqlite"));
    database = kyselyAdapter(db);
    cleanup = () => {
      if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
    };
    onTestFinished(() => cleanup());
  }
  const auth = createAuth({
    database,
    secret: SECRET,
    baseURL: BASE,
    socialProviders: { [provider.id]: provider as OAuthProvider },
    ...rest,
  });
  if (sqlite) await auth.createTables();
  const browser = new Browser(BASE, auth.handler);
  return { auth, store, browser, cleanup };
}

/** The input of a direct `createAuthorizationURL` call. */
export const AUTHORIZATION_REQUEST = {
  state: "s",
  codeVerifier: "v".repeat(43),
  redirectURI: "http://localhost:3000/cb",
};

/** A Latchkey instance as `providerInstance` makes it. */
export type ProviderInstance = Awaited<ReturnType<typeof providerInstance>>;

/** What one sign-in through the emulator produced. */
export interface FlowResult {
  /** Where the browser ended (the app page, or an error page with `?error=`). */
  location: URL;
  /** The authorization request as the provider received it. */
  authorize: URLSearchParams;
  session: { user: Record<string, unknown>; session: Record<string, unknown> } | null;
  accounts: Record<string, unknown>[];
}

/**
 * A whole redirect sign-in: `/sign-in/social` → the emulator's `/authorize` (which answers at
 * once with a code) → `/callback/<id>` → the app. The provider must have its `authorization`
 * and `token` endpoints pointed at `fake`.
 */
export async function signInThrough(
  instance: ProviderInstance,
  providerId: string,
  fake: FakeProvider,
  body: Record<string, unknown> = {},
): Promise<FlowResult> {
  const { browser } = instance;
  const start = await browser.post(`${AUTH}/sign-in/social`, {
    provider: providerId,
    callbackURL: "/dashboard",
    ...body,
  });
  if (start.status !== 200) throw new Error(`sign-in/social: ${start.status} ${await start.text()}`);
  const { url } = (await start.json()) as { url: string };
  const { location } = await browser.follow(url);
  const authorize = fake.last("/authorize")?.query ?? new URLSearchParams();
  const res = await browser.send(`${AUTH}/get-session`);
  const session = (await res.json()) as FlowResult["session"];
  const accounts = session
    ? ((await (await browser.send(`${AUTH}/list-accounts`)).json()) as Record<string, unknown>[])
    : [];
  return { location: new URL(location), authorize, session, accounts };
}

/** Endpoints of a provider pointed at the emulator, by name → path. */
export const at = (fake: FakeProvider, paths: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(paths).map(([name, path]) => [name, fake.url(path)]));
