// Browser-safe entry (`@latchkey/last-login-method/client`): reads the cookie the server
// plugin writes. No server code and no dependencies.

/** The reference's cookie name (kept in step with the server plugin's default). */
const DEFAULT_COOKIE_NAME = "better-auth.last_used_login_method";

/** Options of `lastLoginMethodClient()`, under the reference's names. */
export interface LastLoginMethodClientOptions {
  /** Must equal the server plugin's `cookieName`. @default "better-auth.last_used_login_method" */
  cookieName?: string | undefined;
  /** The cookie's domain, when the server writes it for a parent domain (cross-subdomain cookies). */
  domain?: string | undefined;
}

/** The methods the client gains. */
export interface LastLoginMethodClientMethods {
  /** The method of the last sign-in in this browser (`"email"`, `"google"`, …), or null. */
  getLastUsedLoginMethod(): string | null;
  /** Forgets it (expires the cookie). */
  clearLastUsedLoginMethod(): void;
  /** Whether `method` was the last one used. */
  isLastUsedLoginMethod(method: string): boolean;
}

/** A client plugin for `@latchkey/client` (structurally its `ClientPlugin`). */
export interface LastLoginMethodClientPlugin {
  id: "last-login-method-client";
  methods: () => LastLoginMethodClientMethods;
}

const pageDocument = (): { cookie: string } | undefined =>
  (globalThis as { document?: { cookie: string } }).document;

function readCookie(name: string): string | null {
  const doc = pageDocument();
  if (!doc) return null;
  for (const part of doc.cookie.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

/**
 * Reads the last-used login method from `document.cookie` (the server plugin writes it
 * without `HttpOnly` for this). Outside a browser every method answers as if no cookie were
 * set.
 *
 * @example
 * const client = createAuthClient({ plugins: [lastLoginMethodClient()] });
 * if (client.isLastUsedLoginMethod("google")) showBadge("Last used");
 */
export function lastLoginMethodClient(
  options: LastLoginMethodClientOptions = {},
): LastLoginMethodClientPlugin {
  const name = options.cookieName || DEFAULT_COOKIE_NAME;
  return {
    id: "last-login-method-client",
    methods: () => ({
      getLastUsedLoginMethod: () => readCookie(name),
      clearLastUsedLoginMethod: () => {
        const doc = pageDocument();
        if (!doc) return;
        const domain = options.domain ? ` domain=${options.domain};` : "";
        doc.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 UTC; path=/;${domain}`;
      },
      isLastUsedLoginMethod: (method) => readCookie(name) === method,
    }),
  };
}
