import { deleteSessionCookie, endpoint, sensitiveSessionMiddleware } from "@latchkey/core";
import { ANONYMOUS_ERROR_CODES } from "../error-codes.js";
import type { AnonymousOptions } from "../options.js";
import { isAnonymous } from "./sign-in-anonymous.js";

/**
 * `POST /delete-anonymous-user` (sensitive session): deletes the anonymous user of the session,
 * their sessions and accounts, and clears the session cookies; `{ success: true }`. 400
 * `DELETE_ANONYMOUS_USER_DISABLED` with `disableDeleteAnonymousUser`, 403 `USER_IS_NOT_ANONYMOUS`
 * for any other user.
 */
export function deleteAnonymousUser(options: AnonymousOptions) {
  return endpoint(
    "/delete-anonymous-user",
    { method: "POST", requireHeaders: true, use: [sensitiveSessionMiddleware] },
    async (ctx) => {
      const { user } = ctx.context.session;
      if (options.disableDeleteAnonymousUser)
        throw ANONYMOUS_ERROR_CODES.fail("DELETE_ANONYMOUS_USER_DISABLED", "BAD_REQUEST");
      if (!isAnonymous(user)) throw ANONYMOUS_ERROR_CODES.fail("USER_IS_NOT_ANONYMOUS", "FORBIDDEN");
      try {
        await ctx.context.internalAdapter.deleteUser(user.id, ctx);
      } catch (error) {
        ctx.context.logger.error("anonymous: failed to delete an anonymous user", error);
        throw ANONYMOUS_ERROR_CODES.fail("FAILED_TO_DELETE_ANONYMOUS_USER", "INTERNAL_SERVER_ERROR");
      }
      deleteSessionCookie(ctx);
      return { success: true };
    },
  );
}
