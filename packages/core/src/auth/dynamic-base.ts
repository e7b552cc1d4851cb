import type { LatchkeyOptions } from "../options.js";
import { APIError } from "../errors/api-error.js";
import { matchesOriginPattern } from "../security/trusted-origins.js";

/**
 * `baseURL: { allowedHosts, protocol, fallback }`: one deployment answering on several hosts.
 * The host of each request must be on the list; it then becomes that request's base URL.
 */
export interface DynamicBaseURL {
  /** Hosts (`app.example.com`, `*.example.com`, or with a scheme) this deployment answers on. */
  allowedHosts: string[];
  /** Used when the request's host is missing or not allowed. */
  fallback?: string;
  /** Scheme of the base URL. `"auto"` (default) takes it from the request. */
  protocol?: "http" | "https" | "auto";
}

/** Whether `baseURL` is the dynamic form. */
export const isDynamicBaseURL = (value: unknown): value is DynamicBaseURL =>
  typeof value === "object" && value !== null && Array.isArray((value as DynamicBaseURL).allowedHosts);

/** A host header value: a hostname or IP, an optional port, nothing else. */
const HOST = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;
const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;

/** Strips a scheme and path from an allowed-host entry and matches hosts case-insensitively. */
function hostAllowed(host: string, pattern: string): boolean {
  const entry = pattern.replace(/^https?:\/\//i, "").split("/")[0]!.toLowerCase();
  if (entry.includes("*") || entry.includes("?")) return matchesOriginPattern(`http://${host}`, entry);
  return host.toLowerCase() === entry;
}

/**
 * The request's host: `X-Forwarded-Host` only with `advanced.trustedProxyHeaders` (anyone can
 * send it), else `Host`, else the request URL's. Malformed values are ignored.
 */
function requestHost(request: Request, options: LatchkeyOptions): string | null {
  const candidates = [
    options.advanced?.trustedProxyHeaders ? request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined,
    request.headers.get("host") ?? undefined,
    new URL(request.url).host,
  ];
  return candidates.find((h): h is string => !!h && HOST.test(h)) ?? null;
}

function requestProtocol(request: Request, options: LatchkeyOptions, config: DynamicBaseURL, host: string): string {
  if (config.protocol === "http" || config.protocol === "https") return config.protocol;
  if (options.advanced?.trustedProxyHeaders) {
    const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
    if (proto === "http" || proto === "https") return proto;
  }
  const fromURL = new URL(request.url).protocol.slice(0, -1);
  if (fromURL === "http" || fromURL === "https") return fromURL;
  return LOOPBACK.test(host) ? "http" : "https";
}

/**
 * The origin a request is served under with a dynamic base URL. A host off the list falls
 * back to `fallback`; without one the request is refused with 400 (the reference throws and
 * answers 500, see DIVERGENCES.md): an unknown Host header is bad input, not a server fault.
 */
export function resolveDynamicOrigin(request: Request, options: LatchkeyOptions, config: DynamicBaseURL): string {
  const host = requestHost(request, options);
  if (host && config.allowedHosts.some((pattern) => hostAllowed(host, pattern))) {
    return `${requestProtocol(request, options, config, host)}://${host}`;
  }
  if (config.fallback) return new URL(config.fallback).origin;
  throw new APIError("BAD_REQUEST", { message: "Host is not allowed", code: "HOST_NOT_ALLOWED" });
}

/** Origins trusted because they are allowed hosts (each scheme the protocol option permits). */
export function allowedHostOrigins(config: DynamicBaseURL): string[] {
  const out: string[] = [];
  const proto = config.protocol ?? "auto";
  for (const host of config.allowedHosts) {
    if (host.includes("://")) {
      out.push(host);
      continue;
    }
    if (proto === "https" || proto === "auto") out.push(`https://${host}`);
    if (proto === "http" || proto === "auto" || LOOPBACK.test(host)) out.push(`http://${host}`);
  }
  if (config.fallback) out.push(new URL(config.fallback).origin);
  return out;
}
