import { isTrustedOrigin, type EndpointContext } from "@latchkey/core";
import type { ResolvedOAuthProxyOptions } from "./options.js";

/** The request header that turns the proxy off for one sign-in. */
export const SKIP_PROXY_HEADER = "x-skip-oauth-proxy";

const readEnv = (name: string): string | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name] ||
  undefined;

/** Origin of an absolute URL, or null for anything else. */
export function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/** The deployment URL hosting platforms publish (Vercel without a scheme), as the reference reads them. */
function platformURL(): string | undefined {
  const vercel = readEnv("VERCEL_URL");
  return (
    (vercel ? `https://${vercel}` : undefined) ||
    readEnv("NETLIFY_URL") ||
    readEnv("RENDER_URL") ||
    readEnv("AWS_LAMBDA_FUNCTION_NAME") ||
    readEnv("GOOGLE_CLOUD_FUNCTION_NAME") ||
    readEnv("AZURE_FUNCTION_NAME")
  );
}

/** Trusted origins for this request: the configured list plus what a `trustedOrigins` function adds. */
export async function trustedOriginList(ctx: EndpointContext): Promise<string[]> {
  const option = ctx.context.options.trustedOrigins;
  if (typeof option !== "function") return ctx.context.trustedOrigins;
  return [...ctx.context.trustedOrigins, ...((await option(ctx.request)) ?? []).filter(Boolean)];
}

/**
 * This deployment's URL, where production will send the browser back with the profile. The
 * request's host comes from the client (`Host`, forwarded headers), and whoever names it
 * receives the encrypted profile: so it counts only when its origin is trusted; otherwise the
 * configured URLs decide.
 */
export async function resolveCurrentURL(
  ctx: EndpointContext,
  options: ResolvedOAuthProxyOptions,
): Promise<URL> {
  if (options.currentURL) return new URL(options.currentURL);
  const requestURL = ctx.request?.url;
  const requestOrigin = originOf(requestURL);
  if (requestURL && requestOrigin && isTrustedOrigin(requestOrigin, await trustedOriginList(ctx), false)) {
    return new URL(requestURL);
  }
  const platform = platformURL();
  return new URL(platform && originOf(platform) ? platform : ctx.context.baseURL);
}

/**
 * Whether this sign-in goes to the provider directly: asked for with the
 * `x-skip-oauth-proxy` header, or this deployment is production itself.
 */
export function shouldSkipProxy(ctx: EndpointContext, options: ResolvedOAuthProxyOptions): boolean {
  // Reference: an empty header value does not count.
  if (ctx.headers.get(SKIP_PROXY_HEADER)) return true;
  const production = originOf(options.productionURL || readEnv("BETTER_AUTH_URL") || ctx.context.baseURL);
  const current = originOf(options.currentURL || ctx.request?.url || platformURL());
  return production !== null && production === current;
}

/** The production origin a callback redirect is compared with (the reference's order). */
export function productionOrigin(ctx: EndpointContext, options: ResolvedOAuthProxyOptions): string | null {
  const configured = ctx.context.options.baseURL;
  return originOf(
    options.productionURL || (typeof configured === "string" ? configured : undefined) || ctx.context.baseURL,
  );
}

/** `url` without trailing slashes, so joining a path never doubles one. */
export const stripTrailingSlashes = (url: string): string => url.replace(/\/+$/, "");
