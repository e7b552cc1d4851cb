import * as v from "valibot";
import { endpoint } from "../api/endpoint.js";
import { deleteSessionCookie } from "../session/session-cookie.js";
import { readSessionToken } from "../session/session-token.js";

const body = v.optional(
  v.object({
    callbackURL: v.optional(v.string()),
    disableRedirect: v.optional(v.boolean()),
    state: v.optional(v.string()),
  }),
);

/** `POST /sign-out`: deletes the session, if any, and expires the session cookies. Always `{ success: true }`. */
export const signOut = endpoint("/sign-out", { method: "POST", body, requireHeaders: true }, async (ctx) => {
  const auth = ctx.context;
  // Cookie or Bearer, like every session read: a Bearer client must be able to sign out.
  const token = await readSessionToken(ctx);
  if (token) {
    try {
      await auth.internalAdapter.deleteSession(token);
    } catch (error) {
      // Signing out must still clear the cookies when storage is failing.
      auth.logger.error("Failed to delete the session on sign-out", error);
    }
  }
  deleteSessionCookie(ctx);
  return { success: true };
});
