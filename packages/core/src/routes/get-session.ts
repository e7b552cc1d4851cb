import * as v from "valibot";
import { endpoint } from "../api/endpoint.js";
import { toOutput } from "../db/output.js";
import { resolveSession } from "../session/resolve-session.js";

/** Query flags are truthy when present and non-empty (`?disableRefresh=false` is still true), like the reference. */
const flag = v.optional(v.pipe(v.unknown(), v.transform((value) => (Array.isArray(value) ? value.length > 0 : !!value))));
const query = v.optional(v.looseObject({ disableCookieCache: flag, disableRefresh: flag }));

/**
 * `GET` and `POST /get-session`: the current session and user, or `null`. Answers from the
 * session cache cookie when it is enabled and valid (no storage read); otherwise reads
 * storage, refreshes the expiry once `updateAge` has passed (unless the user chose not to be
 * remembered or refresh is disabled) and re-issues the cache. (The reference answers POST
 * with 405 unless `deferSessionRefresh`; the spec mounts both methods.)
 */
export const getSession = endpoint(
  "/get-session",
  { method: ["GET", "POST"], query, requireHeaders: true },
  async (ctx) => {
    ctx.setHeader("cache-control", "no-store");
    ctx.setHeader("pragma", "no-cache");
    const found = await resolveSession(ctx, {
      disableCookieCache: !!ctx.query?.disableCookieCache,
      disableRefresh: !!ctx.query?.disableRefresh,
    });
    if (!found) return null;
    const { schema } = ctx.context;
    return { session: toOutput(schema, "session", found.session), user: toOutput(schema, "user", found.user) };
  },
);
