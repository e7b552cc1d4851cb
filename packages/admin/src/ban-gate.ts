import { APIError, type DatabaseHookContext, type DatabaseHooks, type Row } from "@latchkey/core";
import type { ResolvedAdminOptions } from "./options.js";
import type { UserWithRole } from "./schema.js";

/** Whether a stored ban is in force now: `banned` set and `banExpires` absent or still ahead. */
export function banInForce(user: UserWithRole, now = Date.now()): boolean {
  if (!user.banned) return false;
  return !user.banExpires || new Date(user.banExpires).getTime() >= now;
}

/** The 403 `BANNED_USER` a banned user's sign-in gets, with the configured message. */
async function bannedError(user: UserWithRole, options: ResolvedAdminOptions): Promise<APIError> {
  const configured = options.bannedUserMessage;
  const message = typeof configured === "function" ? await configured(user) : configured;
  return new APIError("FORBIDDEN", { code: "BANNED_USER", message });
}

/**
 * The database hooks of the admin plugin:
 * - a new user without a role gets `defaultRole`;
 * - before a session is stored, a banned user is refused with 403 `BANNED_USER`, and a ban
 *   whose `banExpires` has passed is lifted (cleared on the row) so the sign-in goes on;
 * - after it is stored, the user is read again: a ban written between the first check and the
 *   insert (a ban racing a sign-in) ends the new session at once and refuses the sign-in. The
 *   ban route writes the ban before it deletes sessions, so every interleaving leaves no
 *   usable session: either the delete sees the new row, or this second read sees the ban.
 * Like the reference, the gate applies to sessions made during a request (there is a context);
 * sessions made by server code outside any endpoint are not checked.
 */
export function adminDatabaseHooks(options: ResolvedAdminOptions): DatabaseHooks {
  return {
    user: {
      create: {
        before: (user: Row) => ({ data: { ...user, role: user.role ?? options.defaultRole } }),
      },
    },
    session: {
      create: {
        before: async (session: Row, ctx: DatabaseHookContext) => {
          if (!ctx) return;
          const ia = ctx.context.internalAdapter;
          const user = (await ia.findUserById(String(session.userId))) as UserWithRole | null;
          if (!user?.banned) return;
          if (!banInForce(user)) {
            await ia.updateUser(user.id, { banned: false, banReason: null, banExpires: null } as Row);
            return;
          }
          throw await bannedError(user, options);
        },
        after: async (session: Row, ctx: DatabaseHookContext) => {
          if (!ctx) return;
          const ia = ctx.context.internalAdapter;
          const user = (await ia.findUserById(String(session.userId))) as UserWithRole | null;
          if (!user || !banInForce(user)) return;
          await ia.deleteSession(String(session.token));
          throw await bannedError(user, options);
        },
      },
    },
  };
}
