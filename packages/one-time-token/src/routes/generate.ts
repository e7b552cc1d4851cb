import { endpoint, sessionMiddleware } from "@latchkey/core";
import { badRequest } from "../error-codes.js";
import type { ResolvedOneTimeTokenOptions } from "../options.js";
import { issueToken } from "../token-store.js";

/**
 * `GET /one-time-token/generate` (session required): `{ token }`, a single-use token for the
 * caller's session. With `disableClientRequest` only `auth.api.generateOneTimeToken` (no
 * HTTP request) may make one; over HTTP it is 400 "Client requests are disabled".
 */
export const generateOneTimeToken = (options: ResolvedOneTimeTokenOptions) =>
  endpoint("/one-time-token/generate", { method: "GET", use: [sessionMiddleware] }, async (ctx) => {
    if (options.disableClientRequest && ctx.request) throw badRequest("CLIENT_REQUESTS_DISABLED");
    return { token: await issueToken(ctx, options, ctx.context.session) };
  });
