// Any origin works as the stand-in: only whether a relative input stays on it matters.
const STAND_IN_ORIGIN = "https://latchkey.invalid";

/**
 * Adds query parameters to an absolute or root-relative URL, keeping its existing query
 * text as is (the reference's `appendQueryParams`, which the verify-email error redirects
 * use). Returns null for anything else (`foo`, `//host`, `/\host`), which would otherwise
 * leave the site or not parse.
 */
export function appendQueryParams(input: string, params: Record<string, string>): string | null {
  const relative = input.startsWith("/");
  if (input.startsWith("//") || input.startsWith("/\\")) return null;
  let url: URL;
  try {
    url = relative ? new URL(input, STAND_IN_ORIGIN) : new URL(input);
  } catch {
    return null;
  }
  if (relative && url.origin !== STAND_IN_ORIGIN) return null;
  const query = new URLSearchParams(params).toString();
  if (!query) return input;
  const separator = url.search.endsWith("&") ? "" : "&";
  url.search = url.search ? `${url.search}${separator}${query}` : query;
  return relative ? url.href.slice(url.origin.length) : url.href;
}

/**
 * Resolves `callbackURL` against the base URL and sets query parameters on it, as the
 * reference's reset-password redirects do (so `/reset` lands on the app's origin). Null
 * when it does not parse.
 */
export function resolveWithQuery(
  callbackURL: string,
  baseURL: string,
  params: Record<string, string>,
): string | null {
  let url: URL;
  try {
    url = new URL(callbackURL, baseURL);
  } catch {
    return null;
  }
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.href;
}
