import { endpoint, toOutput, type SessionWithUser } from "@latchkey/core";
import { byToken, liveSession, readMultiCookies } from "../multi-cookie.js";

/**
 * `GET /multi-session/list-device-sessions`: `[{ session, user }]` for the live sessions the
 * browser's multi cookies name, one per user. No session is required (reference): a browser
 * whose active session ended still lists the others.
 */
export const listDeviceSessions = endpoint(
  "/multi-session/list-device-sessions",
  { method: "GET", requireHeaders: true },
  async (ctx) => {
    const cookies = byToken(await readMultiCookies(ctx));
    const found: SessionWithUser[] = [];
    for (const { token } of cookies) {
      const session = await liveSession(ctx, token);
      if (session && !found.some((f) => f.user.id === session.user.id)) found.push(session);
    }
    const { schema } = ctx.context;
    return found.map((f) => ({ session: toOutput(schema, "session", f.session), user: toOutput(schema, "user", f.user) }));
  },
);
