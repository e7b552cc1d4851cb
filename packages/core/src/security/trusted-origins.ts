import { globMatch } from "./glob-match.js";
import { matchesCustomScheme } from "./custom-scheme.js";

/** Origin of an absolute URL, or null. */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.origin === "null" ? `${parsed.protocol}//${parsed.host}` : parsed.origin;
  } catch {
    return null;
  }
}

/** The URL's origin when it has one (http, https and the other special schemes), else null. */
function webOrigin(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/**
 * Longest URL compared with trusted origins, in characters. Legitimate callback URLs and
 * Origin headers are far shorter; the cap bounds the work an attacker can ask for per entry
 * (HTTP servers commonly refuse request lines past 8 KiB as well).
 */
export const MAX_MATCHED_URL_LENGTH = 8192;

/**
 * Whether `url` is covered by one trusted-origin entry: a glob (`https://*.example.com`,
 * or host-only `*.example.com`), an exact http(s) origin, or a custom scheme entry compared
 * by scheme, authority and path on a segment boundary (`myapp://host/cb`). URLs longer than
 * `MAX_MATCHED_URL_LENGTH` match nothing.
 */
export function matchesOriginPattern(url: string, pattern: string): boolean {
  if (url.length > MAX_MATCHED_URL_LENGTH) return false;
  if (pattern.includes("*") || pattern.includes("?")) {
    // The reference globs the origin, or the whole URL where there is none (custom schemes:
    // `exp://*/*` covers `exp://192.168.1.2:8081/--/cb`).
    if (pattern.includes("://")) return globMatch(webOrigin(url) ?? url, pattern);
    try {
      return globMatch(new URL(url).host, pattern);
    } catch {
      return false;
    }
  }
  const origin = originOf(url);
  if (!origin) return false;
  if (/^https?:\/\//i.test(pattern)) return origin === originOf(pattern);
  // Custom schemes (mobile deep links): scheme, authority, path on a segment boundary.
  return matchesCustomScheme(url, pattern);
}

/** C0 controls and DEL: the URL parser drops tabs and newlines, a `Location` header cannot carry them. */
const hasControlCharacters = (url: string): boolean =>
  [...url].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);

/**
 * A root-relative path that cannot leave the site: one leading `/` (not `//`, which browsers
 * read as another host), no backslashes, control characters or encoded slashes.
 */
export function isSafeRelativePath(url: string): boolean {
  if (!url.startsWith("/") || url.startsWith("//")) return false;
  if (url.includes("\\") || hasControlCharacters(url)) return false;
  if (/%(2f|5c|00)/i.test(url)) return false;
  return true;
}

/** Whether `url` may be used as a redirect or origin: trusted, or a safe relative path when allowed. */
export function isTrustedOrigin(url: string, trusted: readonly string[], allowRelativePaths: boolean): boolean {
  // `new URL()` strips CR/LF/tab before the origin is compared, so `https://app.example/\r\nx`
  // looked trusted; stored as a callback URL it later made the redirect's `Location` throw (a 500).
  if (url.length > MAX_MATCHED_URL_LENGTH || hasControlCharacters(url)) return false;
  if (allowRelativePaths && url.startsWith("/")) return isSafeRelativePath(url);
  return trusted.some((entry) => matchesOriginPattern(url, entry));
}
