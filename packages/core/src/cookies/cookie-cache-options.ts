import type { Logger } from "../logger.js";
import type { Session, User } from "../db/models.js";

/** How the `session_data` cookie is encoded (reference core.md §7). */
export type CookieCacheStrategy = "compact" | "jwt" | "jwe";

/** Computes the cache version from the session and user; a changed version invalidates older caches. */
export type CookieCacheVersion = (session: Session, user: User) => string | Promise<string>;

/**
 * `session.cookieCache`: keeps a signed (or encrypted) copy of the session and user in the
 * `session_data` cookie so session reads can skip storage until it expires.
 */
export interface CookieCacheOptions {
  /** @default false */
  enabled?: boolean;
  /** Seconds the cache cookie and its content stay valid. @default 300 */
  maxAge?: number;
  /**
   * `compact`: base64url JSON signed with HMAC-SHA256; `jwt`: HS256 JWT (readable by anyone
   * holding the cookie); `jwe`: encrypted JWT (dir + A256CBC-HS512).
   * @default "compact"
   */
  strategy?: CookieCacheStrategy;
  /** Cache version; change it to invalidate every cache cookie in circulation. @default "1" */
  version?: string | CookieCacheVersion;
  /**
   * Re-issue the cache before it expires. Meant for deployments without a database or
   * secondary storage; Latchkey always has a database, so, like the reference in that case,
   * it is ignored with a warning. `updateAge` defaults to 20% of `maxAge`.
   * @default false
   */
  refreshCache?: boolean | { updateAge?: number };
}

/** `session.cookieCache` after defaults, resolved once at `createAuth`. */
export interface CookieCacheConfig {
  enabled: boolean;
  strategy: CookieCacheStrategy;
  /** Seconds. */
  maxAge: number;
  version: string | CookieCacheVersion;
}

const STRATEGIES: ReadonlySet<string> = new Set<CookieCacheStrategy>(["compact", "jwt", "jwe"]);

/** Resolves `session.cookieCache`, refusing an unknown strategy or version type. */
export function resolveCookieCache(options: CookieCacheOptions | undefined, logger: Logger): CookieCacheConfig {
  const strategy = options?.strategy ?? "compact";
  // Misconfiguration fails at createAuth, not on the first request (STYLE: Errors).
  if (!STRATEGIES.has(strategy)) {
    throw new TypeError(`session.cookieCache.strategy must be "compact", "jwt" or "jwe".`);
  }
  const version = options?.version;
  if (version !== undefined && typeof version !== "string" && typeof version !== "function") {
    throw new TypeError("session.cookieCache.version must be a string or a function.");
  }
  // `||`, not `??`: the reference treats maxAge 0 as unset (300 s), and so does the cookie.
  const maxAge = options?.maxAge || 300;
  // RFC 6265bis §5.5 caps cookies at 400 days; serializing a longer Max-Age would throw per request.
  if (!Number.isFinite(maxAge) || maxAge < 0 || maxAge > 34_560_000) {
    throw new TypeError("session.cookieCache.maxAge must be a number of seconds between 1 and 34560000 (400 days).");
  }
  if (options?.refreshCache) {
    // Reference (create-context): `refreshCache` re-issues the cache without reading storage,
    // which is only sound when the cookie IS the session (no database, no secondary storage).
    // With a server-side store it would keep a revoked session alive, so the reference turns
    // it off with this warning; Latchkey always has a database, so it always does the same.
    logger.warn(
      "`session.cookieCache.refreshCache` is meant for stateless (database-less) setups and is ignored " +
        "because a database is configured; remove it to silence this warning.",
    );
  }
  return {
    enabled: options?.enabled === true,
    strategy,
    maxAge,
    // An empty string counts as unset, as in the reference ("1").
    version: version || "1",
  };
}
