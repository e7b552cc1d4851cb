/** Default cookie names: prefix `better-auth`, no `__Secure-` on http:// (core.md §6.1). */
export const SESSION_COOKIE = "better-auth.session_token";
export const SESSION_DATA_COOKIE = "better-auth.session_data";
export const DONT_REMEMBER_COOKIE = "better-auth.dont_remember";

/** One Set-Cookie line, split into name, raw value and attributes (names lower-cased). */
export interface ParsedCookie {
  name: string;
  value: string;
  /** `max-age`, `path`, `samesite`, ... → value; flags (`httponly`, `secure`) → `true`. */
  attributes: Record<string, string | true>;
}

/** Parses a Set-Cookie line; attribute names are case-insensitive on the wire, so lower-case them. */
export function parseSetCookie(line: string): ParsedCookie {
  const [pair = "", ...rest] = line.split(";");
  const eq = pair.indexOf("=");
  const attributes: Record<string, string | true> = {};
  for (const part of rest) {
    const trimmed = part.trim();
    if (!trimmed) continue;
    const at = trimmed.indexOf("=");
    if (at === -1) attributes[trimmed.toLowerCase()] = true;
    else attributes[trimmed.slice(0, at).toLowerCase()] = trimmed.slice(at + 1);
  }
  return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attributes };
}

/** Every Set-Cookie of a response, parsed. */
export const responseCookies = (response: Response): ParsedCookie[] =>
  response.headers.getSetCookie().map(parseSetCookie);

/** `name=value` for a Cookie request header, from the response cookie called `name`. */
export function cookiePair(response: Response, name: string): string {
  const cookie = responseCookies(response).find((c) => c.name === name);
  if (!cookie) throw new Error(`response sets no ${name} cookie`);
  return `${cookie.name}=${cookie.value}`;
}

/**
 * A minimal browser-like cookie jar: stores what Set-Cookie sends, drops cookies whose
 * Max-Age is 0 or negative, and renders the Cookie header. One host, so Domain and Path
 * (always `/` here) are not matched.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const cookie of responseCookies(response)) {
      const maxAge = cookie.attributes["max-age"];
      if (cookie.value === "" || (typeof maxAge === "string" && Number(maxAge) <= 0))
        this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  names(): string[] {
    return [...this.cookies.keys()].sort();
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
}
