import type { EndpointContext } from "@latchkey/core";

/**
 * A call from a client: over HTTP, or `auth.api` with headers (the reference's
 * `ctx.request || ctx.headers`). Only server calls without headers may set the server-only
 * fields and act for any `userId`.
 */
export function isClientCall(ctx: EndpointContext): boolean {
  if (ctx.request) return true;
  for (const _ of ctx.headers.keys()) return true;
  return false;
}
