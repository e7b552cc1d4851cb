import type { LatchkeyOptions } from "../options.js";
import { env } from "../env.js";

/** The environment variables a base URL is read from, in order (the reference's). */
export const BASE_URL_ENV = [
  "BETTER_AUTH_URL",
  "NEXT_PUBLIC_BETTER_AUTH_URL",
  "PUBLIC_BETTER_AUTH_URL",
  "NUXT_PUBLIC_BETTER_AUTH_URL",
  "NUXT_PUBLIC_AUTH_URL",
];

/** The configured base URL (option, then the reference's environment variables), if any. */
export function configuredBaseURL(options: LatchkeyOptions): string | undefined {
  if (typeof options.baseURL === "object") return undefined;
  if (options.baseURL) return options.baseURL;
  for (const name of BASE_URL_ENV) {
    const value = env(name);
    if (value) return value;
  }
  const base = env("BASE_URL");
  return base && base !== "/" ? base : undefined;
}

/** Normalised base path: leading slash, no trailing slash; "/" becomes "". */
export function normalizeBasePath(basePath: string | undefined): string {
  const path = basePath ?? "/api/auth";
  if (path === "/" || path === "") return "";
  return `/${path.replace(/^\/+|\/+$/g, "")}`;
}

/**
 * Origin plus base path, e.g. `http://localhost:3000/api/auth`. A base URL that already
 * carries a path keeps it and the base path is not appended, as in the reference.
 */
export function joinBaseURL(baseURL: string, basePath: string): string {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new TypeError(`baseURL "${baseURL}" is not a valid URL.`);
  }
  const path = url.pathname.replace(/\/+$/, "");
  return path && path !== "" ? `${url.origin}${path}` : `${url.origin}${basePath}`;
}

/**
 * The origin a request was sent to. `X-Forwarded-Host`/`-Proto` are honoured only with
 * `advanced.trustedProxyHeaders`: anyone can send them, so by default they are ignored.
 */
export function requestOrigin(request: Request, options: LatchkeyOptions): string {
  const url = new URL(request.url);
  if (!options.advanced?.trustedProxyHeaders) return url.origin;
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  const scheme = proto === "http" || proto === "https" ? proto : url.protocol.slice(0, -1);
  // Built as a string: assigning URL.host keeps the old port when the new host has none.
  const authority = host && /^[A-Za-z0-9.\-:[\]]+$/.test(host) ? host : url.host;
  return new URL(`${scheme}://${authority}`).origin;
}
