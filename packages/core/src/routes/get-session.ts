import * as v from "valibot";
import { endpoint } from "../api/endpoint.js";
import { toOutput } from "../db/output.js";
import { fail } from "../errors/index.js";
import { deleteSessionCookie, setSessionCookie } from "../session/session-cookie.js";
import { readSessionToken } from "../session/session-token.js";

/** Query flags are truthy when present and non-empty (`?disableRefresh=false` is still true), like the reference. */
const flag = v.optional(v.pipe(v.unknown(), v.transform((value) => (Array.isArray(value) ? value.length > 0 : !!value))));
const query = v.optional(v.looseObject({ disableCookieCache: flag, disableRefresh: flag }));

/**
 * `GET` and `POST /get-session`: the current session and user, or `null`. Refreshes the expiry
 * once `updateAge` has passed since the last refresh, unless the user chose not to be
 * remembered or refresh is disabled. (The reference answers POST with 405 unless
 * `deferSessionRefresh`; the spec mounts both methods.)
 */
export const getSession = endpoint(
  "/get-session",
  { method: ["GET", "POST"], query, requireHeaders: true },
  async (ctx) => {
    ctx.setHeader("cache-control", "no-store");
    ctx.setHeader("pragma", "no-cache");
    const auth = ctx.context;
    const token = await readSessionToken(ctx);
    if (!token) return null;
    const found = await auth.internalAdapter.findSession(token);
    if (!found || found.session.expiresAt.getTime() < Date.now()) {
      deleteSessionCookie(ctx);
      if (found) await auth.internalAdapter.deleteSession(found.session.token);
      return null;
    }
    auth.session = found;
    const output = () => ({
      session: toOutput(auth.schema, "session", found.session),
      user: toOutput(auth.schema, "user", found.user),
    });
    const dontRemember = await ctx.getSignedCookie(auth.authCookies.dontRememberToken.name);
    const { expiresIn, updateAge } = auth.sessionConfig;
    const disabled = !!ctx.query?.disableRefresh || auth.options.session?.disableSessionRefresh;
    if (dontRemember || disabled) return output();
    const refreshDue = found.session.expiresAt.getTime() - expiresIn * 1000 + updateAge * 1000 <= Date.now();
    if (!refreshDue) return output();
    const updated = await auth.internalAdapter.updateSession(
      found.session.token,
      { expiresAt: new Date(Date.now() + expiresIn * 1000), updatedAt: new Date() },
      ctx,
    );
    if (!updated) {
      // Deleted between the read and the refresh (a concurrent sign-out).
      deleteSessionCookie(ctx);
      throw fail("UNAUTHORIZED", "FAILED_TO_GET_SESSION");
    }
    found.session = updated;
    await setSessionCookie(ctx, found, false, { maxAge: expiresIn });
    return output();
  },
);
