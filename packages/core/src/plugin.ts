import type { AuthContext } from "./context.js";
import type { Endpoints } from "./api/endpoint.js";
import type { HookEntry } from "./api/hooks.js";
import type { SchemaDefinition } from "./db/field.js";
import type { DatabaseHooks } from "./db/database-hooks.js";
import type { ServiceProvision } from "./plugin-services.js";
import type { PluginErrorCodes } from "./errors/define-error-codes.js";
import type { SocialProviderEntry } from "./oauth2/providers.js";
import type { SocialProviderFactory } from "./oauth2/options.js";

/** A rate-limit rule a plugin contributes for the paths it matches. */
export interface PluginRateLimitRule {
  window: number;
  max: number;
  pathMatcher: (path: string) => boolean;
}

/** What a plugin's `init` may hand core at start-up: typed services and OAuth providers. */
export interface PluginInit {
  /** Values other plugins (or core) read through their service key; see `serviceKey`. */
  services?: ServiceProvision[];
  /** OAuth providers offered by `/sign-in/social`, `/callback/:id` and `/link-social`, before the configured ones. */
  socialProviders?: SocialProviderEntry[];
  /** Provider id → factory for reference-style configs of providers core does not ship. */
  socialProviderFactories?: Record<string, SocialProviderFactory>;
}

type MaybePromise<T> = T | Promise<T>;

/**
 * A Latchkey plugin: a plain object made by a factory that takes the plugin's options.
 * Core never imports a plugin; everything a plugin adds enters through these fields, and
 * core builds the one HTTP app from every `endpoints` record, so validation, the origin
 * check, hooks and collision checks run for every route.
 */
export interface LatchkeyPlugin<Id extends string = string, E extends Endpoints = Endpoints> {
  /** Unique id, e.g. `"two-factor"`. */
  id: Id;
  /** Its endpoints by `auth.api` name, each made with `endpoint()`; mounted under `basePath`. */
  endpoints?: E;
  /** Tables it adds and columns it adds to existing tables. */
  schema?: SchemaDefinition;
  /** Hooks around endpoints (core's or another plugin's), matched by name or path at `createAuth`. */
  hooks?: { before?: HookEntry[]; after?: HookEntry[] };
  /** Hooks around database writes; they run before the user's own `databaseHooks`. */
  databaseHooks?: DatabaseHooks;
  /** Error code → message (make it with `defineErrorCodes`), merged into `auth.$ERROR_CODES`. */
  errorCodes?: PluginErrorCodes;
  rateLimit?: PluginRateLimitRule[];
  /** Ids of the plugins this one needs; `createAuth` refuses to start without them. */
  requires?: readonly string[];
  /** Runs once, before the first request or `auth.api` call; may publish services and providers. */
  init?: (ctx: AuthContext) => MaybePromise<PluginInit | void>;
  /** Sees each request first: return `{ response }` to answer, or `{ request }` to replace it. */
  onRequest?: (
    request: Request,
    ctx: AuthContext,
  ) => MaybePromise<{ response?: Response; request?: Request } | void>;
  /** Sees each response last: return `{ response }` to replace it. */
  onResponse?: (response: Response, ctx: AuthContext) => MaybePromise<{ response?: Response } | void>;
  /** The options the plugin was made with. */
  options?: unknown;
}
