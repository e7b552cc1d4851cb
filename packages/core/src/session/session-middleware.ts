import type { EndpointContext } from "../api/context.js";
import type { EndpointMiddleware } from "../api/endpoint.js";
import type { SessionWithUser } from "../db/internal-adapter.js";
import { APIError } from "../errors/api-error.js";
import { fail } from "../errors/index.js";
import { queryFlag, resolveSession, type ResolveSessionOptions } from "./resolve-session.js";

/**
 * The request's live session, or null, resolved once per request by the `/get-session`
 * algorithm: the cache cookie when valid, else storage (refreshing the session and
 * re-issuing its cookies when due). The calling route's own `?disableCookieCache` and
 * `?disableRefresh` apply too, as in the reference.
 */
export async function getSessionFromRequest(
  ctx: EndpointContext,
  options: ResolveSessionOptions = {},
): Promise<SessionWithUser | null> {
  if (ctx.context.session) return ctx.context.session;
  try {
    return await resolveSession(ctx, {
      disableCookieCache: options.disableCookieCache || queryFlag(ctx.query, "disableCookieCache"),
      disableRefresh: options.disableRefresh || queryFlag(ctx.query, "disableRefresh"),
    });
  } catch (error) {
    // Reference: a failed session read means "no session" to a middleware (the route then
    // answers 401). Storage errors are not swallowed: they are 500s, and logged.
    if (!(error instanceof APIError)) throw error;
    ctx.context.session = null;
    return null;
  }
}

const unauthorized = (): APIError => new APIError("UNAUTHORIZED", { message: "Unauthorized", code: "UNAUTHORIZED" });

/** What the session middlewares guarantee: the request's session, never null behind them. */
export interface WithSession {
  session: SessionWithUser;
}

/** The request's session, or 401 `UNAUTHORIZED`; the session is left on `ctx.context`. */
async function requireSession(ctx: EndpointContext, options?: ResolveSessionOptions): Promise<SessionWithUser> {
  const session = await getSessionFromRequest(ctx, options);
  if (!session) throw unauthorized();
  return session;
}

/** Requires a valid session (the cache cookie may vouch for it): 401 `UNAUTHORIZED` otherwise. */
export const sessionMiddleware: EndpointMiddleware<WithSession> = async (ctx) => {
  await requireSession(ctx);
};

/** Requires a session created less than `freshAge` ago: 403 `SESSION_NOT_FRESH` otherwise. */
export const freshSessionMiddleware: EndpointMiddleware<WithSession> = async (ctx) => {
  const { session } = await requireSession(ctx);
  const { freshAge } = ctx.context.sessionConfig;
  if (freshAge !== 0 && Date.now() - session.createdAt.getTime() >= freshAge * 1000) {
    throw fail("FORBIDDEN", "SESSION_NOT_FRESH");
  }
};

/**
 * Requires a valid session read from storage, never from the cache cookie: routes that
 * change credentials or sessions must not act on a revoked session that a cache issued
 * before the revocation still vouches for. Discards a session an earlier hook resolved
 * (possibly from the cache). The reference does this whenever a database or secondary
 * storage holds sessions, which in Latchkey is always.
 */
export const sensitiveSessionMiddleware: EndpointMiddleware<WithSession> = async (ctx) => {
  ctx.context.session = null;
  await requireSession(ctx, { disableCookieCache: true });
};
