import { startServer, type ChildServer, type ServerName, type ServerSettings } from "./child-server.js";
import type { BenchOptions } from "./options.js";
import type { PluginDiscovery } from "./plugins.js";
import { seedUser, type SeededUser } from "./seed.js";
import type { Implementation } from "./server-config.js";
import type { Stores } from "./stores.js";

/** What every figure group works with. */
export interface RunContext {
  options: BenchOptions;
  /** The same random secret for every server. */
  secret: string;
  /** The bundled server entry of each implementation, and of the cold-start floor (build.ts). */
  entries: Record<ServerName, string>;
  discovery: PluginDiscovery;
  stores: Stores;
  /** The local Pwned Passwords range API every server is pointed at (pwned-range.ts). */
  pwnedRangeURL: string | null;
  log(line: string): void;
}

/** Both implementations, in the order each figure loads them. */
export const IMPLEMENTATIONS = ["latchkey", "reference"] as const satisfies readonly Implementation[];

/** The plain server every figure starts from: its own SQLite file, no cache, no storage, no plugins. */
export function baseSettings(ctx: RunContext, implementation: Implementation): ServerSettings {
  return {
    secret: ctx.secret,
    database: ctx.stores.sqlite(implementation),
    cookieCache: false,
    redis: null,
    plugins: [],
    pwnedRangeURL: ctx.pwnedRangeURL,
    migrate: true,
  };
}

/** A running server and the user seeded on it. */
export interface Target {
  server: ChildServer;
  user: SeededUser;
}

/** What `withServers` starts under one key. */
export interface ServerSpec {
  implementation: Implementation;
  settings: ServerSettings;
}

/**
 * Starts one server per key, one after the other, seeds each, runs `fn`, and stops them all.
 * They are loaded in turn, never together: the idle ones hold memory, not CPU.
 */
export async function withServers<K extends string, T>(
  ctx: RunContext,
  specs: Record<K, ServerSpec>,
  fn: (targets: Record<K, Target>) => Promise<T>,
): Promise<T> {
  const targets = {} as Record<K, Target>;
  try {
    for (const key of Object.keys(specs) as K[]) {
      const { implementation, settings } = specs[key];
      const server = await startServer(implementation, ctx.entries[implementation], settings);
      ctx.log(`${key}: ${implementation} listening on ${server.baseURL}`);
      targets[key] = { server, user: { email: "", password: "", cookie: "", bearer: null, apiKey: null } };
      targets[key].user = await seedUser(server.baseURL, { apiKey: settings.plugins.includes("api-key") });
    }
    return await fn(targets);
  } catch (error) {
    const outputs = Object.entries<Target>(targets)
      .map(([key, target]) => `--- ${key} server output ---\n${target.server.output()}`)
      .join("\n");
    // fetch's "fetch failed" says why only in its cause (a refused or reset connection).
    const cause = (error as Error).cause;
    const why = cause instanceof Error ? ` (${cause.message})` : "";
    throw new Error(`${(error as Error).message}${why}\n${outputs}`, { cause: error });
  } finally {
    await Promise.all(Object.values<Target>(targets).map((target) => target.server.stop()));
  }
}

/**
 * Starts one server with `settings`, signs the bench user up on it, runs `fn`, and stops it.
 * One server at a time: the other implementation's process does not even exist meanwhile.
 */
export async function withServer<T>(
  ctx: RunContext,
  implementation: Implementation,
  settings: ServerSettings,
  fn: (server: ChildServer, user: SeededUser) => Promise<T>,
): Promise<T> {
  const server = await startServer(implementation, ctx.entries[implementation], settings);
  try {
    ctx.log(`${implementation}: listening on ${server.baseURL}`);
    return await fn(server, await seedUser(server.baseURL, { apiKey: settings.plugins.includes("api-key") }));
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\n--- ${implementation} server output ---\n${server.output()}`,
      {
        cause: error,
      },
    );
  } finally {
    await server.stop();
  }
}
