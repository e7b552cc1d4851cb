import * as v from "valibot";
import { endpoint } from "../api/endpoint.js";
import { providerLogoutURL } from "../oauth2/end-session.js";
import { deleteSessionCookie } from "../session/session-cookie.js";
import { readSessionToken } from "../session/session-token.js";

const body = v.optional(
  v.object({
    callbackURL: v.optional(v.string()),
    disableRedirect: v.optional(v.boolean()),
    state: v.optional(v.string()),
  }),
);

/**
 * `POST /sign-out`: deletes the session, if any, and expires the session cookies. Always
 * `{ success: true }`, plus `url` and `redirect` when a provider of the user offers
 * RP-initiated logout (then with `Location`, unless `disableRedirect`).
 */
export const signOut = endpoint("/sign-out", { method: "POST", body, requireHeaders: true }, async (ctx) => {
  const auth = ctx.context;
  // Cookie or Bearer, like every session read: a Bearer client must be able to sign out.
  const token = await readSessionToken(ctx);
  let userId: string | undefined;
  if (token) {
    // Read before the delete, and only when some provider could offer a logout URL.
    if (auth.socialProviders?.length) {
      userId = await auth.internalAdapter.findSession(token).then(
        (found) => found?.user.id,
        (error: unknown) => void auth.logger.error("Failed to read the session on sign-out", error),
      );
    }
    try {
      await auth.internalAdapter.deleteSession(token);
    } catch (error) {
      // Signing out must still clear the cookies when storage is failing.
      auth.logger.error("Failed to delete the session on sign-out", error);
    }
  }
  deleteSessionCookie(ctx);
  const url = userId ? await providerLogoutURL(ctx, userId, ctx.body ?? {}) : null;
  if (!url) return { success: true };
  const redirect = !ctx.body?.disableRedirect;
  // Reference: 200 with a Location header, the client follows it.
  if (redirect) ctx.setHeader("location", url);
  return { success: true, url, redirect };
});
