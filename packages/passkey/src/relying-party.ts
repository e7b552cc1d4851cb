import type { EndpointContext } from "@latchkey/core";
import type { ResolvedPasskeyOptions } from "./options.js";

/**
 * The relying party id: the `rpID` option, else the hostname of a configured string
 * `baseURL`, else "localhost" (the reference's rule: a dynamic base URL does not count).
 */
export function relyingPartyID(ctx: EndpointContext, options: ResolvedPasskeyOptions): string {
  if (options.rpID) return options.rpID;
  const base = ctx.context.options.baseURL;
  return typeof base === "string" && base ? new URL(base).hostname : "localhost";
}

/** The relying party name: the `rpName` option, else the app name. */
export const relyingPartyName = (ctx: EndpointContext, options: ResolvedPasskeyOptions): string =>
  options.rpName || ctx.context.appName;

/**
 * The origin(s) the browser's client data must name: the `origin` option, else the request's
 * `Origin` header (the reference's default, so a browser's own fetch always sends one). Null
 * when neither is there; the routes then refuse before any verification.
 */
export function expectedOrigin(ctx: EndpointContext, options: ResolvedPasskeyOptions): string | string[] | null {
  return options.origin || ctx.headers.get("origin") || null;
}
