import type { CookieAttributes } from "../options.js";

/** Cookies may not outlive 400 days (RFC 6265bis §5.5); the reference refuses longer ones too. */
const MAX_AGE_LIMIT = 34_560_000;

/**
 * Serialises one `Set-Cookie` value with attributes in the reference's order:
 * `name=value; Max-Age; Domain; Path; Expires; HttpOnly; Secure; SameSite; Partitioned`.
 * `value` is written as given: callers encode it.
 */
export function serializeCookie(name: string, value: string, attrs: CookieAttributes = {}): string {
  let out = `${name}=${value}`;
  const secure = attrs.secure || name.startsWith("__Secure-") || name.startsWith("__Host-") || attrs.partitioned;
  if (typeof attrs.maxAge === "number" && attrs.maxAge >= 0) {
    if (attrs.maxAge > MAX_AGE_LIMIT) throw new TypeError("Cookie Max-Age may not exceed 400 days.");
    out += `; Max-Age=${Math.floor(attrs.maxAge)}`;
  }
  if (attrs.domain) out += `; Domain=${attrs.domain}`;
  if (attrs.path) out += `; Path=${attrs.path}`;
  if (attrs.expires) out += `; Expires=${attrs.expires.toUTCString()}`;
  if (attrs.httpOnly) out += "; HttpOnly";
  if (secure) out += "; Secure";
  if (attrs.sameSite) out += `; SameSite=${attrs.sameSite.charAt(0).toUpperCase()}${attrs.sameSite.slice(1)}`;
  if (attrs.partitioned) out += "; Partitioned";
  return out;
}

/**
 * Parses a `Cookie` header into a map. The first occurrence of a name wins, like browsers
 * send the most specific cookie first. Values are not decoded here.
 */
export function parseCookieHeader(header: string | null | undefined): Map<string, string> {
  const map = new Map<string, string>();
  if (!header) return map;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || map.has(name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    map.set(name, value);
  }
  return map;
}

/** Percent-decodes a cookie value when it holds an escape; malformed escapes stay as they are. */
export function decodeCookieValue(value: string): string {
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
