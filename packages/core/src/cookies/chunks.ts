import type { EndpointContext } from "../api/context.js";
import type { CookieAttributes } from "../options.js";
import { decodeCookieValue, parseCookieHeader, serializeCookie } from "./serialize.js";

// A cookie value too large for one cookie is split into `<name>.0`, `<name>.1`, … (the
// reference's session store, itself from Auth.js). Browsers keep at least 4096 bytes per
// cookie (RFC 6265 §6.1); Safari's floor is about 4093, and the reference stays a little
// under it so attributes added later still fit.
const MAX_COOKIE_SIZE = 4050;
// Past 100 chunks a value does not belong in a cookie: the reference writes nothing then.
const MAX_COOKIE_CHUNKS = 100;

/**
 * The chunk index of `name` under `base` (`base.7` → 7), or null. Only canonical decimal
 * indexes count (`base.07`, `base.-1`, `base.x` are other cookies), as in the reference.
 */
export function chunkIndex(base: string, name: string): number | null {
  if (!name.startsWith(`${base}.`)) return null;
  const suffix = name.slice(base.length + 1);
  const index = Number(suffix);
  if (!Number.isSafeInteger(index) || index < 0 || String(index) !== suffix) return null;
  return index;
}

/** The request's cookies, parsed, when the header mentions `base` at all (cheap guard first). */
function requestCookies(ctx: EndpointContext, base: string): Map<string, string> | null {
  const header = ctx.headers.get("cookie");
  // A substring test costs far less than parsing; most requests carry no cache cookie.
  if (!header || !header.includes(base)) return null;
  return parseCookieHeader(header);
}

/** Names the request holds for `base`: the cookie itself and every chunk of it. */
export function requestChunkNames(ctx: EndpointContext, base: string): string[] {
  const cookies = requestCookies(ctx, base);
  if (!cookies) return [];
  return [...cookies.keys()].filter((name) => name === base || chunkIndex(base, name) !== null);
}

/**
 * Reads a possibly chunked cookie: the unchunked cookie when it has a value, else its chunks
 * joined in index order (gaps are not filled: a value missing a chunk fails to decode, which
 * is the caller's signal to expire it). Null when neither is there.
 */
export function readChunkedCookie(ctx: EndpointContext, base: string): string | null {
  const whole = ctx.getCookie(base);
  if (whole) return whole;
  const header = ctx.headers.get("cookie");
  if (!header?.includes(`${base}.`)) return null;
  const chunks: Array<[number, string]> = [];
  for (const [name, value] of parseCookieHeader(header)) {
    const index = chunkIndex(base, name);
    if (index !== null) chunks.push([index, decodeCookieValue(value)]);
  }
  if (!chunks.length) return null;
  chunks.sort((a, b) => a[0] - b[0]);
  return chunks.map(([, value]) => value).join("");
}

/** Expires every cookie the request holds for `base` (itself and its chunks). */
export function clearChunkedCookie(ctx: EndpointContext, base: string, attributes: CookieAttributes): void {
  for (const name of requestChunkNames(ctx, base)) ctx.setCookie(name, "", { ...attributes, maxAge: 0 });
}

/**
 * Writes `value` under `base`, split into chunks when one cookie would exceed the size
 * limit, and expires whatever the request held under `base` that this write does not
 * replace (a value that shrank from 3 chunks to 1 must not leave `.1` and `.2` behind).
 * Returns false, having written nothing but those expiries, when more than 100 chunks
 * would be needed.
 */
export function writeChunkedCookie(
  ctx: EndpointContext,
  base: string,
  value: string,
  attributes: CookieAttributes,
): boolean {
  // Same emission order as the reference's store: expiries for what the request holds, in
  // request order, a rewritten name taking its expiry's place, then the remaining chunks.
  const out = new Map<string, { value: string; attributes: CookieAttributes }>();
  for (const name of requestChunkNames(ctx, base)) out.set(name, { value: "", attributes: { ...attributes, maxAge: 0 } });
  // Room for a value = the limit minus the serialised name and attributes, measured on the
  // longest chunk name (`base.99`) so every chunk fits with the same size.
  const room = MAX_COOKIE_SIZE - serializeCookie(`${base}.${MAX_COOKIE_CHUNKS - 1}`, "", attributes).length;
  // Values written here are base64url or JWT text, which `encodeURIComponent` leaves
  // unchanged, so the length measured is the length sent.
  const count = room > 0 ? Math.ceil(value.length / room) : Infinity;
  let written = true;
  if (count <= 1) {
    out.set(base, { value, attributes });
  } else if (count > MAX_COOKIE_CHUNKS) {
    ctx.context.logger.warn(
      `The ${base} cookie would need more than ${MAX_COOKIE_CHUNKS} chunks and was not written; reduce the data kept in it.`,
    );
    written = false;
  } else {
    for (let i = 0; i < count; i++) {
      out.set(`${base}.${i}`, { value: value.slice(i * room, (i + 1) * room), attributes });
    }
  }
  for (const [name, cookie] of out) ctx.setCookie(name, cookie.value, cookie.attributes);
  return written;
}
