import type { EndpointContext } from "@latchkey/core";

/**
 * Sends the browser to `url`: a 302, or `{ redirect: true, url }` for a script's fetch
 * (`Sec-Fetch-Mode: cors`) or a caller that accepts JSON, which then navigates itself.
 */
export function redirectTo(ctx: EndpointContext, url: string): { redirect: true; url: string } {
  const fromFetch = ctx.headers.get("sec-fetch-mode") === "cors";
  if (fromFetch || ctx.headers.get("accept")?.includes("application/json")) return { redirect: true, url };
  throw ctx.redirect(url);
}

/** `url` with `error`, `error_description` and, when given, `state` and `iss` (RFC 6749 §4.1.2.1, RFC 9207). */
export function errorRedirectURL(url: string, error: string, description: string, state?: string, iss?: string): string {
  const params = new URLSearchParams({ error, error_description: description });
  if (state) params.append("state", state);
  if (iss) params.append("iss", iss);
  const relative = url.startsWith("/");
  let parsed: URL;
  try {
    parsed = new URL(url, relative ? "http://relative.invalid" : undefined);
  } catch {
    return `${url}?${params.toString()}`;
  }
  const separator = parsed.search.endsWith("&") ? "" : "&";
  parsed.search = parsed.search ? `${parsed.search}${separator}${params.toString()}` : params.toString();
  return relative ? parsed.href.slice(parsed.origin.length) : parsed.href;
}

/** The error page for failures before the redirect URI is trusted: never the client's URI (no open redirect). */
export function errorPageURL(ctx: EndpointContext, error: string, description: string): string {
  return errorRedirectURL(ctx.context.options.onAPIError?.errorURL || `${ctx.context.baseURL}/error`, error, description);
}
