/**
 * The one reading of a request's path that routing and every check before it share. The
 * reference routes on the pathname as sent, percent-escapes and all, so `/sign%2Din/email`
 * and `/%73ign-in/email` are 404 there. Hono's default decodes escapes before routing, which
 * let those spellings reach the sign-in handler while `disabledPaths` and the rate-limit rules,
 * reading the undecoded path, saw another path (and each spelling got its own counter).
 */

/**
 * The pathname of `url` exactly as sent: no percent-decoding. `Request.url` is already
 * serialised by the URL parser (dot segments resolved, scheme and host lower-cased), so this
 * is `new URL(url).pathname` without the cost of parsing it again.
 */
export function rawPathname(url: string): string {
  const start = url.indexOf("/", url.indexOf(":") + 3);
  if (start < 0) return "/";
  let end = start;
  while (end < url.length && url.charCodeAt(end) !== 63 /* ? */ && url.charCodeAt(end) !== 35 /* # */) end++;
  return url.slice(start, end);
}

/**
 * The path relative to `basePath` without trailing slashes, the key `disabledPaths` and the
 * rate-limit rules compare (the reference's `normalizePathname`). A path outside `basePath`
 * stays whole.
 */
export function authPath(url: string, basePath: string): string {
  const pathname = rawPathname(url).replace(/\/+$/, "") || "/";
  if (!basePath) return pathname;
  if (pathname === basePath) return "/";
  if (pathname.startsWith(`${basePath}/`)) return pathname.slice(basePath.length) || "/";
  return pathname;
}

/**
 * Hono's `getPath` for the auth app: the undecoded pathname, so an encoded spelling of a route
 * matches nothing (404, as in the reference). With `skipTrailingSlashes` one trailing slash
 * is dropped, as the reference's router does; a doubled one still matches nothing.
 */
export function routerPath(skipTrailingSlashes: boolean): (request: Request) => string {
  if (!skipTrailingSlashes) return (request) => rawPathname(request.url);
  return (request) => {
    const path = rawPathname(request.url);
    return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  };
}
