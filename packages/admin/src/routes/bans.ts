import { endpoint, fail, toOutput } from "@latchkey/core";
import * as v from "valibot";
import { ADMIN_ERROR_CODES } from "../error-codes.js";
import { adminSessionMiddleware, requirePermission } from "../guard.js";
import type { ResolvedAdminOptions } from "../options.js";
import { userId, userIdBody } from "./inputs.js";

/** The latest instant a JavaScript `Date` can hold (ECMA-262 §21.4.1.1). */
const MAX_DATE_MS = 8.64e15;

/**
 * `banExpiresIn` is seconds, as in the reference, and must be more than zero: the reference
 * reads `0` as "not given" and bans for ever (or for `defaultBanExpiresIn`), and a value so
 * large that the expiry is no date made it fail when storing. Both are 400 here.
 */
const banExpiresIn = v.pipe(
  v.number(),
  v.finite(),
  v.gtValue(0),
  v.check((s) => Date.now() + s * 1000 <= MAX_DATE_MS, "banExpiresIn is too large"),
);

const banBody = v.object({ userId, banReason: v.optional(v.string()), banExpiresIn: v.optional(banExpiresIn) });

/** When a ban given `seconds` (or the default) ends, or null for a ban without end. */
function banEnd(seconds: number | undefined, options: ResolvedAdminOptions): Date | null {
  const span = seconds ?? options.defaultBanExpiresIn;
  return span === undefined ? null : new Date(Date.now() + span * 1000);
}

/**
 * `POST /admin/ban-user` `{ userId, banReason?, banExpiresIn? }` (`user:ban`): marks the user
 * banned (reason defaulting to `defaultBanReason`, then "No reason"), then deletes all its
 * sessions; `{ user }`. The ban is written before the sessions are deleted, so a sign-in racing
 * it is caught by the session gate (ban-gate.ts). Banning oneself is 400 `YOU_CANNOT_BAN_YOURSELF`.
 */
export const banUser = (options: ResolvedAdminOptions) =>
  endpoint("/admin/ban-user", { method: "POST", body: banBody, use: [adminSessionMiddleware] }, async (ctx) => {
    const auth = ctx.context;
    requirePermission(auth.session, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS", options);
    if (!(await auth.internalAdapter.findUserById(ctx.body.userId))) throw fail("NOT_FOUND", "USER_NOT_FOUND");
    if (ctx.body.userId === auth.session.user.id) throw ADMIN_ERROR_CODES.fail("YOU_CANNOT_BAN_YOURSELF", "BAD_REQUEST");
    const ban = {
      banned: true,
      banReason: ctx.body.banReason || options.defaultBanReason || "No reason",
      banExpires: banEnd(ctx.body.banExpiresIn, options),
    };
    const user = await auth.internalAdapter.updateUser(ctx.body.userId, ban as never, ctx);
    await auth.internalAdapter.deleteUserSessions(ctx.body.userId, ctx);
    if (!user) throw fail("NOT_FOUND", "USER_NOT_FOUND");
    return { user: toOutput(auth.schema, "user", user) };
  });

/** `POST /admin/unban-user` `{ userId }` (`user:ban`): clears the ban, its reason and its end; `{ user }`. */
export const unbanUser = (options: ResolvedAdminOptions) =>
  endpoint("/admin/unban-user", { method: "POST", body: userIdBody, use: [adminSessionMiddleware] }, async (ctx) => {
    const auth = ctx.context;
    requirePermission(auth.session, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS", options);
    if (!(await auth.internalAdapter.findUserById(ctx.body.userId))) throw fail("NOT_FOUND", "USER_NOT_FOUND");
    const lifted = { banned: false, banReason: null, banExpires: null };
    const user = await auth.internalAdapter.updateUser(ctx.body.userId, lifted as never, ctx);
    if (!user) throw fail("NOT_FOUND", "USER_NOT_FOUND");
    return { user: toOutput(auth.schema, "user", user) };
  });
