import type { AuthContext } from "./context.js";
import type { AuthRouter } from "./api/router.js";
import type { HookEntry } from "./api/hooks.js";
import type { SchemaDefinition } from "./db/field.js";
import type { DatabaseHooks } from "./db/database-hooks.js";

/** A rate-limit rule a plugin contributes for the paths it matches. */
export interface PluginRateLimitRule {
  window: number;
  max: number;
  pathMatcher: (path: string) => boolean;
}

/**
 * A Latchkey plugin: a plain object made by a factory that takes the plugin's options.
 * Core never imports a plugin; everything a plugin adds enters through these fields.
 */
export interface LatchkeyPlugin {
  /** Unique id, e.g. `"two-factor"`. */
  id: string;
  /** Tables it adds and columns it adds to existing tables. */
  schema?: SchemaDefinition;
  /** Its endpoints, as a router made with `createRouter()`; mounted under `basePath`. */
  routes?: (ctx: AuthContext) => AuthRouter;
  /** Hooks around any endpoint (core's or another plugin's). */
  hooks?: { before?: HookEntry[]; after?: HookEntry[] };
  /** Hooks around database writes; they run before the user's own `databaseHooks`. */
  databaseHooks?: DatabaseHooks;
  /** Error code → message, merged into `auth.$ERROR_CODES`. */
  errorCodes?: Record<string, string>;
  rateLimit?: PluginRateLimitRule[];
  /** Runs once at start-up; may add fields to the shared context (e.g. a signer). */
  init?: (ctx: AuthContext) => void | { context?: Record<string, unknown> } | Promise<void | { context?: Record<string, unknown> }>;
  /** Sees each request first: return `{ response }` to answer, or `{ request }` to replace it. */
  onRequest?: (
    request: Request,
    ctx: AuthContext,
  ) => Promise<{ response?: Response; request?: Request } | void> | { response?: Response; request?: Request } | void;
  /** Sees each response last: return `{ response }` to replace it. */
  onResponse?: (
    response: Response,
    ctx: AuthContext,
  ) => Promise<{ response?: Response } | void> | { response?: Response } | void;
  /** The options the plugin was made with. */
  options?: unknown;
}
