import type { Adapter } from "./db/adapter.js";
import type { SecondaryStorage } from "./db/secondary-storage.js";
import type { ResolvedSchema } from "./db/field.js";
import type { InternalAdapter, SessionWithUser } from "./db/internal-adapter.js";
import type { AuthCookies } from "./cookies/auth-cookies.js";
import type { CookieCacheConfig } from "./cookies/cookie-cache-options.js";
import type { Logger } from "./logger.js";
import type { LatchkeyOptions } from "./options.js";
import type { LatchkeyPlugin } from "./plugin.js";
import type { SocialProviderEntry } from "./oauth2/providers.js";
import type { SocialProviderFactory } from "./oauth2/options.js";

export type { SessionWithUser } from "./db/internal-adapter.js";

/** Session timing in seconds, after defaults. */
export interface SessionConfig {
  expiresIn: number;
  updateAge: number;
  freshAge: number;
  /** `session.cookieCache` after defaults. */
  cookieCache: CookieCacheConfig;
}

/** The password hasher in use (scrypt unless the options replace it) and its length limits. */
export interface PasswordContext {
  hash(password: string): Promise<string>;
  verify(args: { hash: string; password: string }): Promise<boolean>;
  config: { minPasswordLength: number; maxPasswordLength: number };
}

/**
 * Everything an endpoint, hook or plugin reads about the running instance. Shared by all
 * requests; per-request state lives on `EndpointContext.context` layered over it.
 */
export interface AuthContext {
  options: LatchkeyOptions;
  appName: string;
  /** Origin plus base path (`http://localhost:3000/api/auth`); per request when inferred. */
  baseURL: string;
  basePath: string;
  secret: string;
  logger: Logger;
  adapter: Adapter;
  /** `options.secondaryStorage`, when configured (sessions, verification values, rate-limit counters). */
  secondaryStorage?: SecondaryStorage;
  internalAdapter: InternalAdapter;
  schema: ResolvedSchema;
  authCookies: AuthCookies;
  sessionConfig: SessionConfig;
  password: PasswordContext;
  /** Origins allowed to send credentialed state-changing requests and be redirected to. */
  trustedOrigins: string[];
  plugins: readonly LatchkeyPlugin[];
  /** Services the plugins published in `init`, by key id; read them with `getService(ctx, KEY)`. */
  services: Map<string, unknown>;
  /** Development and test mode: an error code no installed plugin declares is a 500 (see `assertDeclaredCode`). */
  checkErrorCodes: boolean;
  /** Every error code of core and plugins → message. */
  errorCodes: Record<string, string>;
  generateId(args: { model: string; size?: number }): string | false;
  hasPlugin(id: string): boolean;
  /** Session resolved for the current request, when known (per-request contexts override it). */
  session?: SessionWithUser | null;
  /** OAuth providers (`socialProviders`, and those plugins publish in `init`). */
  socialProviders: SocialProviderEntry[];
  /** Provider id → factory building a provider from a reference-style config. */
  socialProviderFactories: Record<string, SocialProviderFactory>;
}
