import type { EndpointContext } from "@latchkey/core";

/** The reference's cookie name: literal, never prefixed by `cookiePrefix` or `__Secure-`. */
export const DEFAULT_COOKIE_NAME = "better-auth.last_used_login_method";

/** Thirty days, in seconds. */
export const DEFAULT_MAX_AGE = 60 * 60 * 24 * 30;

/** Options of `lastLoginMethod()`, under the reference's names. */
export interface LastLoginMethodOptions {
  /**
   * Name of the (script-readable) cookie that holds the method.
   * @default "better-auth.last_used_login_method"
   */
  cookieName?: string | undefined;
  /**
   * Cookie lifetime in seconds.
   * @default 2592000 (30 days)
   */
  maxAge?: number | undefined;
  /**
   * Also keep the method on the user row (`user.lastLoginMethod`), written on sign-up and on
   * every new session.
   * @default false
   */
  storeInDatabase?: boolean | undefined;
  /** Physical column names. */
  schema?:
    | { user?: { /** @default "lastLoginMethod" */ lastLoginMethod?: string | undefined } | undefined }
    | undefined;
  /**
   * Names the method of a request; return null to fall back to the built-in rules (a
   * custom method name, or a plugin path they do not know).
   */
  customResolveMethod?: ((ctx: EndpointContext) => string | null | undefined) | undefined;
  /**
   * Asked before the cookie is written (consent banners); false keeps it unwritten. A throw
   * counts as false and is logged. The database column is written regardless.
   */
  beforeStoreCookie?: ((ctx: EndpointContext, method: string) => boolean | Promise<boolean>) | undefined;
}

/** Options after defaults. */
export interface ResolvedLastLoginMethodOptions extends LastLoginMethodOptions {
  cookieName: string;
  maxAge: number;
  storeInDatabase: boolean;
}

/** Applies the defaults once; a cookie name or max age no cookie can carry is a `TypeError`. */
export function resolveLastLoginMethodOptions(
  options: LastLoginMethodOptions = {},
): ResolvedLastLoginMethodOptions {
  const cookieName = options.cookieName ?? DEFAULT_COOKIE_NAME;
  // RFC 6265 §4.1.1: a cookie name is a token (no separators, controls or spaces).
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(cookieName)) {
    throw new TypeError("lastLoginMethod: cookieName must be a valid cookie name.");
  }
  const maxAge = options.maxAge ?? DEFAULT_MAX_AGE;
  if (!Number.isFinite(maxAge) || maxAge < 0)
    throw new TypeError("lastLoginMethod: maxAge must be seconds, 0 or more.");
  return { ...options, cookieName, maxAge, storeInDatabase: options.storeInDatabase ?? false };
}
