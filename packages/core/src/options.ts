import type { AdapterFactory } from "./db/adapter.js";
import type { DBField } from "./db/field.js";
import type { LoggerOptions } from "./logger.js";
import type { LatchkeyPlugin } from "./plugin.js";
import type { HookMiddleware } from "./api/hooks.js";
import type { DatabaseHooks } from "./db/database-hooks.js";
import type { CookieCacheOptions } from "./cookies/cookie-cache-options.js";
import type { IPAddressOptions } from "./ip.js";
import type { RateLimitOptions } from "./rate-limit/options.js";
import type {
  EmailVerificationOptions,
  PasswordResetOptions,
  UserEmailFlowOptions,
} from "./email-options.js";
import type { ValidateUserInfo } from "./security/validate-user-info.js";
import type { DynamicBaseURL } from "./auth/dynamic-base.js";
import type { SecondaryStorage } from "./db/secondary-storage.js";
import type { SessionStorageOptions, VerificationStorageOptions } from "./db/storage-options.js";
import type { AccountOptions, SocialProviders } from "./oauth2/options.js";

/** Cookie attributes, as the reference's `CookieOptions`. */
export interface CookieAttributes {
  maxAge?: number;
  expires?: Date;
  domain?: string;
  path?: string;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: "strict" | "lax" | "none" | "Strict" | "Lax" | "None";
  partitioned?: boolean;
}

/** `emailAndPassword` option group. */
export interface EmailAndPasswordOptions extends PasswordResetOptions {
  /** @default false */
  enabled?: boolean;
  /** @default false */
  disableSignUp?: boolean;
  /** @default false */
  requireEmailVerification?: boolean;
  /** @default 8 */
  minPasswordLength?: number;
  /** @default 128 */
  maxPasswordLength?: number;
  /** Sign the user in right after sign-up. @default true */
  autoSignIn?: boolean;
  /** Replace the scrypt hasher (both functions together). */
  password?: {
    hash?: (password: string) => Promise<string>;
    verify?: (args: { hash: string; password: string }) => Promise<boolean>;
  };
}

/** `session` option group. */
export interface SessionOptions extends SessionStorageOptions {
  modelName?: string;
  fields?: Record<string, string>;
  additionalFields?: Record<string, DBField>;
  /** Seconds. @default 604800 (7 days) */
  expiresIn?: number;
  /** Seconds since the last refresh after which a read refreshes the expiry. @default 86400 */
  updateAge?: number;
  /** Seconds since creation during which the session counts as fresh. @default 86400 */
  freshAge?: number;
  /** @default false */
  disableSessionRefresh?: boolean;
  /** The session cache cookie; see `CookieCacheOptions`. */
  cookieCache?: CookieCacheOptions;
}

/** `user`, `account` and `verification` model options. */
export interface ModelOptions {
  modelName?: string;
  fields?: Record<string, string>;
  additionalFields?: Record<string, DBField>;
}

/** `advanced` option group. */
export interface AdvancedOptions {
  /** @default "better-auth" */
  cookiePrefix?: string;
  /** Derived from the base URL's scheme when unset. */
  useSecureCookies?: boolean;
  defaultCookieAttributes?: CookieAttributes;
  cookies?: Record<string, { name?: string; attributes?: CookieAttributes }>;
  crossSubDomainCookies?: { enabled?: boolean; domain?: string };
  /** Skip the Origin / Fetch-Metadata CSRF checks. @default false */
  disableCSRFCheck?: boolean;
  /** Skip callback URL validation (and CSRF unless `disableCSRFCheck` is set). @default false */
  disableOriginCheck?: boolean;
  ipAddress?: IPAddressOptions;
  database?: {
    /** Row id generator: a function, `"uuid"`, or `false` to let the database decide. */
    generateId?: ((args: { model: string; size?: number }) => string | false) | "uuid" | false;
    /** Check tables and columns on the first request. @default true */
    validateSchema?: boolean;
    defaultFindManyLimit?: number;
  };
  /** @default false */
  trustedProxyHeaders?: boolean;
  /** @default false */
  skipTrailingSlashes?: boolean;
}

/** Options of `createAuth`, with Better Auth's names and defaults. */
export interface LatchkeyOptions {
  /** @default "Better Auth" */
  appName?: string;
  /** Origin (and optional path) the server is reached at. Env fallback `BETTER_AUTH_URL`, … */
  baseURL?: string | DynamicBaseURL;
  /** @default "/api/auth" */
  basePath?: string;
  /** Env fallback `BETTER_AUTH_SECRET`, then `AUTH_SECRET`. */
  secret?: string;
  database?: AdapterFactory;
  /** Key-value store for sessions, verification values and rate-limit counters (e.g. `redisStorage()`). */
  secondaryStorage?: SecondaryStorage;
  emailAndPassword?: EmailAndPasswordOptions;
  emailVerification?: EmailVerificationOptions;
  session?: SessionOptions;
  user?: ModelOptions &
    UserEmailFlowOptions & {
      /** Gate run before every user is created; see `ValidateUserInfo`. */
      validateUserInfo?: ValidateUserInfo;
    };
  account?: ModelOptions & AccountOptions;
  /** Provider id → OAuth provider (or its config, or a function); see `SocialProviders`. */
  socialProviders?: SocialProviders;
  verification?: ModelOptions & VerificationStorageOptions & {
    /** Keep expired verification rows instead of sweeping them on lookups. @default false */
    disableCleanup?: boolean;
  };
  trustedOrigins?: string[] | ((request?: Request) => string[] | Promise<string[]>);
  plugins?: LatchkeyPlugin[];
  hooks?: { before?: HookMiddleware; after?: HookMiddleware };
  databaseHooks?: DatabaseHooks;
  advanced?: AdvancedOptions;
  logger?: LoggerOptions;
  onAPIError?: { throw?: boolean; onError?: (error: unknown) => void | Promise<void>; errorURL?: string };
  /** Paths (relative to basePath) answered with 404. */
  disabledPaths?: string[];
  /** Request limits per client address and path; see `RateLimitOptions`. */
  rateLimit?: RateLimitOptions;
}
