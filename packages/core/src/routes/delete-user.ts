import { applicationCall } from "../api/declared-codes.js";
import * as v from "valibot";
import type { EndpointContext } from "../api/context.js";
import { endpoint } from "../api/endpoint.js";
import type { User } from "../db/models.js";
import { APIError } from "../errors/api-error.js";
import { fail } from "../errors/index.js";
import { assertTrustedCallbackURL } from "../security/origin-check.js";
import { deleteSessionCookie } from "../session/session-cookie.js";
import { getSessionFromRequest, sensitiveSessionMiddleware } from "../session/session-middleware.js";
import { createDeleteToken, deleteIdentifier } from "./delete-token.js";
import { deliver } from "../mail/mail-delivery.js";
import { assertPasswordLength } from "./password-rules.js";

const USER_DELETED = { success: true, message: "User deleted" } as const;

/** Deletes the user with its sessions and accounts, between the two hooks; clears the cookies. */
async function removeUser(ctx: EndpointContext, user: User): Promise<void> {
  const auth = ctx.context;
  const options = auth.options.user?.deleteUser;
  await applicationCall(() => options?.beforeDelete?.(user, ctx.request));
  await auth.internalAdapter.deleteUser(user.id, ctx);
  // Also through the session store, which may hold sessions the user table does not cascade to.
  await auth.internalAdapter.deleteUserSessions(user.id, ctx);
  deleteSessionCookie(ctx);
  await applicationCall(() => options?.afterDelete?.(user, ctx.request));
}

/**
 * Redeems a delete-account token for the signed-in user. The token is spent first
 * (atomically, single use) and must be one issued to this user: 404 `INVALID_TOKEN` otherwise.
 */
async function deleteWithToken(ctx: EndpointContext, token: string): Promise<void> {
  const auth = ctx.context;
  // From storage, never the cache cookie (reference: a revoked session must not delete).
  const session = await getSessionFromRequest(ctx, { disableCookieCache: true });
  if (!session) throw fail("NOT_FOUND", "FAILED_TO_GET_USER_INFO");
  const row = await auth.internalAdapter.consumeVerificationValue(deleteIdentifier(token));
  if (!row || row.value !== session.user.id) throw fail("NOT_FOUND", "INVALID_TOKEN");
  await removeUser(ctx, session.user);
}

/**
 * `POST /delete-user`: deletes the signed-in user. With `password`, it must be theirs; with
 * `token`, it completes a mailed confirmation; with `sendDeleteAccountVerification`, it
 * mails a link instead; otherwise, without a password, the session must be fresh (400
 * `SESSION_EXPIRED`). Answers 404 with no body unless `user.deleteUser.enabled`.
 */
export const deleteUser = endpoint(
  "/delete-user",
  {
    method: "POST",
    body: v.object({
      callbackURL: v.optional(v.string()),
      password: v.optional(v.string()),
      token: v.optional(v.string()),
    }),
    use: [sensitiveSessionMiddleware],
  },
  async (ctx) => {
    const auth = ctx.context;
    const options = auth.options.user?.deleteUser;
    if (!options?.enabled) {
      auth.logger.error("Delete user is disabled. Enable it in the options");
      throw new APIError("NOT_FOUND");
    }
    const { session, user } = auth.session;
    const { password, token, callbackURL } = ctx.body;
    if (password) {
      assertPasswordLength(ctx, password, false);
      const account = await auth.internalAdapter.findCredentialAccount(user.id);
      if (!account?.password) throw fail("BAD_REQUEST", "CREDENTIAL_ACCOUNT_NOT_FOUND");
      if (!(await auth.password.verify({ hash: account.password, password }))) {
        throw fail("BAD_REQUEST", "INVALID_PASSWORD");
      }
    }
    if (token) {
      await deleteWithToken(ctx, token);
      return USER_DELETED;
    }
    const send = options.sendDeleteAccountVerification;
    if (send) {
      const lifetime = options.deleteTokenExpiresIn || 86_400;
      const minted = createDeleteToken();
      await auth.internalAdapter.createVerificationValue(
        {
          identifier: deleteIdentifier(minted),
          value: user.id,
          expiresAt: new Date(Date.now() + lifetime * 1000),
        },
        ctx,
      );
      const url = `${auth.baseURL}/delete-user/callback?token=${minted}&callbackURL=${encodeURIComponent(callbackURL || "/")}`;
      await deliver(ctx, "delete-account", () => send({ user, url, token: minted }, ctx.request));
      return { success: true, message: "Verification email sent" };
    }
    // Without a password or a mailed link, only a recent sign-in vouches for the caller.
    const { freshAge } = auth.sessionConfig;
    if (!password && freshAge !== 0 && Date.now() - session.createdAt.getTime() >= freshAge * 1000) {
      throw fail("BAD_REQUEST", "SESSION_EXPIRED");
    }
    await removeUser(ctx, user);
    return USER_DELETED;
  },
);

/**
 * `GET /delete-user/callback`: the mailed link; needs the session of the user it was issued
 * to. Redirects to `callbackURL` when given, else answers `{success, message}`.
 */
export const deleteUserCallback = endpoint(
  "/delete-user/callback",
  { method: "GET", query: v.object({ token: v.string(), callbackURL: v.optional(v.string()) }) },
  async (ctx) => {
    const { token, callbackURL } = ctx.query;
    await assertTrustedCallbackURL(ctx, callbackURL);
    if (!ctx.context.options.user?.deleteUser?.enabled) {
      ctx.context.logger.error("Delete user is disabled. Enable it in the options");
      throw new APIError("NOT_FOUND", { message: "Not found", code: "NOT_FOUND" });
    }
    await deleteWithToken(ctx, token);
    if (callbackURL) throw ctx.redirect(callbackURL);
    return USER_DELETED;
  },
);
