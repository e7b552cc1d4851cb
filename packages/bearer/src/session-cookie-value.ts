/**
 * The value a response gives the session cookie, as the reference's bearer plugin reads it:
 * the last `Set-Cookie` for `name` wins; the value is unquoted and percent-decoded, so a
 * signed cookie yields `<token>.<signature>`. Null when the response sets no such cookie or
 * expires it (empty value, `Max-Age` of 0 or less).
 */
export function sessionCookieValue(setCookies: readonly string[], name: string): string | null {
  let found: string | null = null;
  for (const line of setCookies) {
    const [pair = "", ...attributes] = line.split(";");
    const eq = pair.indexOf("=");
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    const value = decode(unquote(pair.slice(eq + 1).trim()));
    found = value && !expires(attributes) ? value : null;
  }
  return found;
}

function expires(attributes: readonly string[]): boolean {
  for (const attribute of attributes) {
    const [key = "", value = ""] = attribute.split("=");
    // The reference checks `=== 0`; a negative Max-Age deletes the cookie just the same (RFC 6265 §5.2.2).
    if (key.trim().toLowerCase() === "max-age" && Number.parseInt(value.trim(), 10) <= 0) return true;
  }
  return false;
}

const unquote = (value: string): string =>
  value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;

function decode(value: string): string {
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
