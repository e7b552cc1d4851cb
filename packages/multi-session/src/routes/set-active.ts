import { endpoint, setSessionCookie, toOutput } from "@latchkey/core";
import * as v from "valibot";
import { MULTI_SESSION_ERROR_CODES } from "../error-codes.js";
import { expireMultiCookie, liveSession, multiCookieName, readMultiCookie } from "../multi-cookie.js";

const body = v.object({ sessionToken: v.string() });

/**
 * `POST /multi-session/set-active` `{ sessionToken }`: makes a session this browser holds a
 * multi cookie for the active one (the session cookie) and answers `{ session, user }`. The
 * cookie, not the body, is the proof: a token alone switches nothing. 401
 * `INVALID_SESSION_TOKEN` without the cookie, or when its session is gone (then the stale
 * cookie is expired).
 */
export const setActiveSession = endpoint(
  "/multi-session/set-active",
  { method: "POST", body, requireHeaders: true },
  async (ctx) => {
    const name = multiCookieName(ctx, ctx.body.sessionToken);
    const token = await readMultiCookie(ctx, name);
    if (!token) throw MULTI_SESSION_ERROR_CODES.fail("INVALID_SESSION_TOKEN", "UNAUTHORIZED");
    const session = await liveSession(ctx, token);
    if (!session) {
      expireMultiCookie(ctx, name);
      throw MULTI_SESSION_ERROR_CODES.fail("INVALID_SESSION_TOKEN", "UNAUTHORIZED");
    }
    await setSessionCookie(ctx, session);
    const { schema } = ctx.context;
    return { session: toOutput(schema, "session", session.session), user: toOutput(schema, "user", session.user) };
  },
);
