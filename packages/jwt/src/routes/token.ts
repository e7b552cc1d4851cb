import { endpoint, sessionMiddleware } from "@latchkey/core";
import type { ResolvedJwtOptions } from "../options.js";
import { sessionToken } from "../session-token.js";

/** `GET /token`: `{ token }`, a JWT for the caller's session; 401 without one. */
export function getToken(options: ResolvedJwtOptions) {
  return endpoint("/token", { method: "GET", requireHeaders: true, use: [sessionMiddleware] }, async (ctx) => ({
    token: await sessionToken(ctx.context, options, ctx.context.session),
  }));
}
