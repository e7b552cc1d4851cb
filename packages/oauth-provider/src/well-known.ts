import type { AuthContext } from "@latchkey/core";
import { discoveryDocument } from "./metadata.js";
import { tokenIssuer } from "./issuer.js";
import type { ResolvedOAuthOptions } from "./options.js";

const CACHE_CONTROL = "public, max-age=15, stale-while-revalidate=15, stale-if-error=86400";

/** The path of the issuer URL without a trailing slash ("" for an issuer at the origin). */
function issuerPath(ctx: AuthContext): string {
  for (const candidate of [tokenIssuer(ctx), ctx.baseURL]) {
    try {
      return new URL(candidate).pathname.replace(/\/$/, "");
    } catch {
      // the next candidate
    }
  }
  return "";
}

/**
 * Serves discovery ahead of the router, as the reference does: RFC 8414 §3.1's path-inserted
 * `/.well-known/oauth-authorization-server<issuer path>`, the appended form
 * `<issuer path>/.well-known/oauth-authorization-server`, and (with `openid`) OpenID Discovery
 * §4's `<issuer path>/.well-known/openid-configuration`. GET and HEAD only (405 otherwise).
 */
export function wellKnownHandler(options: ResolvedOAuthOptions) {
  return (request: Request, ctx: AuthContext): { response: Response } | undefined => {
    // Every request passes here: leave the others at a substring test, before any URL parsing.
    if (!request.url.includes("/.well-known/")) return undefined;
    const pathname = new URL(request.url).pathname;
    const path = ctx.options.advanced?.skipTrailingSlashes ? pathname.replace(/\/+$/, "") || "/" : pathname;
    const issuer = issuerPath(ctx);
    const isServer = path === `/.well-known/oauth-authorization-server${issuer}` || path === `${issuer}/.well-known/oauth-authorization-server`;
    const isOpenId = options.scopes.includes("openid") && path === `${issuer}/.well-known/openid-configuration`;
    if (!isServer && !isOpenId) return undefined;
    if (request.method !== "GET" && request.method !== "HEAD") {
      return { response: new Response(null, { status: 405, headers: { Allow: "GET, HEAD" } }) };
    }
    const headers = { "Cache-Control": CACHE_CONTROL, "Content-Type": "application/json" };
    const body = request.method === "HEAD" ? null : JSON.stringify(discoveryDocument(ctx, options));
    return { response: new Response(body, { status: 200, headers }) };
  };
}
