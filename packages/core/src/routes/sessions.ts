import * as v from "valibot";
import { endpoint } from "../api/endpoint.js";
import { toOutput } from "../db/output.js";
import { freshSessionMiddleware, sensitiveSessionMiddleware } from "../session/session-middleware.js";

/** `GET /list-sessions`: the user's live sessions, tokens included. Needs a fresh session, as in the reference. */
export const listSessions = endpoint(
  "/list-sessions",
  { method: "GET", use: [freshSessionMiddleware], requireHeaders: true },
  async (ctx) => {
    const auth = ctx.context;
    const sessions = await auth.internalAdapter.listSessions(auth.session.user.id);
    const now = Date.now();
    return sessions.filter((s) => s.expiresAt.getTime() > now).map((s) => toOutput(auth.schema, "session", s));
  },
);

/**
 * `POST /revoke-session`: ends one of the caller's sessions by token. A token of another
 * user's session is silently left alone (`{ status: true }` either way, as in the reference,
 * so the answer does not reveal whether a token exists).
 */
export const revokeSession = endpoint(
  "/revoke-session",
  { method: "POST", body: v.object({ token: v.string() }), use: [sensitiveSessionMiddleware], requireHeaders: true },
  async (ctx) => {
    const auth = ctx.context;
    const target = await auth.internalAdapter.findSession(ctx.body.token);
    if (target?.session.userId === auth.session.user.id) await auth.internalAdapter.deleteSession(ctx.body.token, ctx);
    return { status: true };
  },
);

/** `POST /revoke-sessions`: ends every session of the user, the current one included (cookie left as is, as in the reference). */
export const revokeSessions = endpoint(
  "/revoke-sessions",
  { method: "POST", use: [sensitiveSessionMiddleware], requireHeaders: true },
  async (ctx) => {
    await ctx.context.internalAdapter.deleteUserSessions(ctx.context.session.user.id, ctx);
    return { status: true };
  },
);

/** `POST /revoke-other-sessions`: ends every session of the user but the current one. */
export const revokeOtherSessions = endpoint(
  "/revoke-other-sessions",
  { method: "POST", use: [sensitiveSessionMiddleware], requireHeaders: true },
  async (ctx) => {
    const auth = ctx.context;
    const current = auth.session.session.token;
    const sessions = await auth.internalAdapter.listSessions(auth.session.user.id);
    await auth.internalAdapter.deleteSessions(sessions.map((s) => s.token).filter((t) => t !== current), ctx);
    return { status: true };
  },
);
