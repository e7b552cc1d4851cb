import type { EndpointContext, HookEntry } from "@latchkey/core";
import { sessionCookieValue } from "./session-cookie-value.js";

/** The response header that carries the session token to clients that keep no cookies. */
export const SET_AUTH_TOKEN_HEADER = "set-auth-token";

/** Adds `set-auth-token` to a comma-separated `Access-Control-Expose-Headers` list, once. */
export function exposeHeader(current: string | null, header: string): string {
  const names = (current ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (!names.some((name) => name.toLowerCase() === header)) names.push(header);
  return names.join(", ");
}

/**
 * After every endpoint: when the response sets the session cookie, copy its signed value into
 * `set-auth-token` and expose that header to cross-origin scripts (a browser hides response
 * headers from `fetch` unless CORS exposes them). Reads what the endpoint wrote, as the
 * reference does, so sign-up, sign-in, session refreshes and plugin sign-ins all count.
 */
export const setAuthTokenHook: HookEntry = {
  matcher: "*",
  handler: (ctx: EndpointContext) => {
    const name = ctx.context.authCookies.sessionToken.name;
    const token = sessionCookieValue(ctx.responseHeaders.getSetCookie(), name);
    if (!token) return;
    // The signed value, not the raw token: it is what the reference sends and what the
    // Bearer reader verifies against the secret.
    ctx.setHeader(SET_AUTH_TOKEN_HEADER, token);
    const exposed = ctx.responseHeaders.get("access-control-expose-headers");
    ctx.setHeader("Access-Control-Expose-Headers", exposeHeader(exposed, SET_AUTH_TOKEN_HEADER));
  },
};
