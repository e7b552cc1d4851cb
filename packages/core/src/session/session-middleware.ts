import type { EndpointContext } from "../api/context.js";
import type { EndpointMiddleware } from "../api/endpoint.js";
import { APIError } from "../errors/api-error.js";
import { fail } from "../errors/index.js";
import { readSessionToken } from "./session-token.js";

/** Finds the request's live session (not expired), or null. */
export async function getSessionFromRequest(ctx: EndpointContext) {
  if (ctx.context.session) return ctx.context.session;
  const token = await readSessionToken(ctx);
  if (!token) return null;
  const found = await ctx.context.internalAdapter.findSession(token);
  if (!found || found.session.expiresAt.getTime() < Date.now()) return null;
  ctx.context.session = found;
  return found;
}

/** Requires a valid session: 401 `UNAUTHORIZED` otherwise. */
export const sessionMiddleware: EndpointMiddleware = async (ctx) => {
  const session = await getSessionFromRequest(ctx);
  if (!session) throw new APIError("UNAUTHORIZED", { message: "Unauthorized", code: "UNAUTHORIZED" });
};

/** Requires a session created less than `freshAge` ago: 403 `SESSION_NOT_FRESH` otherwise. */
export const freshSessionMiddleware: EndpointMiddleware = async (ctx) => {
  await sessionMiddleware(ctx);
  const { freshAge } = ctx.context.sessionConfig;
  const created = ctx.context.session!.session.createdAt.getTime();
  if (freshAge !== 0 && Date.now() - created >= freshAge * 1000) throw fail("FORBIDDEN", "SESSION_NOT_FRESH");
};

/**
 * Requires a valid session read from storage, never from a cache: routes that change
 * credentials or sessions must not act on a revoked session a cache still vouches for.
 */
export const sensitiveSessionMiddleware: EndpointMiddleware = sessionMiddleware;
