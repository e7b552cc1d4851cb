import type { CookieAttributes, LatchkeyOptions } from "../options.js";
import { isProduction } from "../env.js";
import { configuredBaseURL } from "../auth/resolve-base.js";

/** A named cookie with the attributes it is written with. */
export interface CookieSpec {
  name: string;
  attributes: CookieAttributes;
}

/** The cookies core writes. */
export interface AuthCookies {
  sessionToken: CookieSpec;
  sessionData: CookieSpec;
  dontRememberToken: CookieSpec;
  /** Builds the spec of any other auth cookie (plugins use it for their own). */
  create(name: string, overrides?: CookieAttributes): CookieSpec;
}

/**
 * Whether cookies get `__Secure-` and `Secure` (reference core.md §6.1): the explicit option;
 * else a static base URL's scheme; else a dynamic base URL's fixed protocol; else (no base
 * URL, or a dynamic one with protocol "auto") production mode. Deliberately not the scheme of
 * each request: cookie names must not change with whatever a client claims.
 */
export function usesSecureCookies(options: LatchkeyOptions): boolean {
  if (options.advanced?.useSecureCookies !== undefined) return options.advanced.useSecureCookies;
  const base = options.baseURL;
  const fixed = configuredBaseURL(options);
  if (fixed) return fixed.startsWith("https://");
  if (typeof base === "object" && (base.protocol === "http" || base.protocol === "https")) return base.protocol === "https";
  return isProduction();
}

/** Builds the auth cookie specs for one base URL. */
export function createAuthCookies(options: LatchkeyOptions, baseURL: string | undefined): AuthCookies {
  const secure = usesSecureCookies(options);
  const prefix = options.advanced?.cookiePrefix ?? "better-auth";
  const cross = options.advanced?.crossSubDomainCookies;
  let domain: string | undefined;
  if (cross?.enabled) {
    domain = cross.domain ?? (baseURL ? new URL(baseURL).hostname : undefined);
    if (!domain) throw new TypeError("crossSubDomainCookies needs a domain or a baseURL.");
  }
  const create = (name: string, overrides: CookieAttributes = {}): CookieSpec => {
    const custom = options.advanced?.cookies?.[name];
    const base = custom?.name ?? `${prefix}.${name}`;
    return {
      name: secure ? `__Secure-${base}` : base,
      attributes: {
        secure: !!secure,
        sameSite: "lax",
        path: "/",
        httpOnly: true,
        ...(domain ? { domain } : {}),
        ...options.advanced?.defaultCookieAttributes,
        ...overrides,
        ...custom?.attributes,
      },
    };
  };
  const expiresIn = options.session?.expiresIn ?? 604_800;
  return {
    sessionToken: create("session_token", { maxAge: expiresIn }),
    sessionData: create("session_data", { maxAge: options.session?.cookieCache?.maxAge || 300 }),
    dontRememberToken: create("dont_remember"),
    create,
  };
}
