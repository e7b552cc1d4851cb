import { endpoint, setSessionCookie, toOutput } from "@latchkey/core";
import * as v from "valibot";
import { badRequest } from "../error-codes.js";
import type { ResolvedOneTimeTokenOptions } from "../options.js";
import { redeemToken } from "../token-store.js";

const body = v.object({ token: v.string() });

/**
 * `POST /one-time-token/verify` `{ token }`: spends the token and answers `{ session, user }`
 * of the session it was made for, setting the session cookie unless `disableSetSessionCookie`.
 * 400 "Invalid token" (unknown, spent or expired), "Session not found", "Session expired".
 * The expiry is checked before the cookie is written (the reference writes it first: row 96).
 */
export const verifyOneTimeToken = (options: ResolvedOneTimeTokenOptions) =>
  endpoint("/one-time-token/verify", { method: "POST", body }, async (ctx) => {
    const sessionToken = await redeemToken(ctx, options, ctx.body.token);
    if (!sessionToken) throw badRequest("INVALID_TOKEN");
    const found = await ctx.context.internalAdapter.findSession(sessionToken);
    if (!found) throw badRequest("SESSION_NOT_FOUND");
    if (new Date(found.session.expiresAt).getTime() < Date.now()) throw badRequest("SESSION_EXPIRED");
    if (!options.disableSetSessionCookie) await setSessionCookie(ctx, found);
    const { schema } = ctx.context;
    return { session: toOutput(schema, "session", found.session), user: toOutput(schema, "user", found.user) };
  });
