import type { CookieAttributes, LatchkeyOptions } from "../options.js";
import { isProduction } from "../env.js";

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
 * Whether cookies get `__Secure-` and `Secure`: the explicit option, else an `https://`
 * base URL, else production mode when no base URL is known (reference core.md §6.1).
 */
export function usesSecureCookies(options: LatchkeyOptions, baseURL: string | undefined): boolean {
  if (options.advanced?.useSecureCookies !== undefined) return options.advanced.useSecureCookies;
  if (baseURL) return baseURL.startsWith("https://");
  return isProduction();
}

/** Builds the auth cookie specs for one base URL. */
export function createAuthCookies(options: LatchkeyOptions, baseURL: string | undefined): AuthCookies {
  const secure = usesSecureCookies(options, baseURL);
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
    sessionData: create("session_data", { maxAge: 300 }),
    dontRememberToken: create("dont_remember"),
    create,
  };
}
