import * as v from "valibot";
import type { EndpointContext } from "../api/context.js";
import { endpoint } from "../api/endpoint.js";
import { toOutput } from "../db/output.js";
import { fail } from "../errors/index.js";
import { getClientIP } from "../ip.js";
import { setSessionCookie } from "../session/session-cookie.js";
import { sensitiveSessionMiddleware } from "../session/session-middleware.js";
import { assertPasswordLength } from "./password-rules.js";

/** Verifies `password` against the user's credential account; false without one. */
async function checkCurrentPassword(ctx: EndpointContext, userId: string, password: string): Promise<boolean> {
  assertPasswordLength(ctx, password, false);
  const account = await ctx.context.internalAdapter.findCredentialAccount(userId);
  if (!account?.password) return false;
  return ctx.context.password.verify({ hash: account.password, password });
}

/**
 * `POST /change-password`: needs the current password. With `revokeOtherSessions`, every
 * session of the user ends (the current one too, as in the reference) and a new one is
 * issued and returned.
 */
export const changePassword = endpoint(
  "/change-password",
  {
    method: "POST",
    body: v.object({ newPassword: v.string(), currentPassword: v.string(), revokeOtherSessions: v.optional(v.boolean()) }),
    use: [sensitiveSessionMiddleware],
  },
  async (ctx) => {
    const auth = ctx.context;
    const { newPassword, currentPassword, revokeOtherSessions } = ctx.body;
    const { user } = auth.session;
    assertPasswordLength(ctx, newPassword);
    assertPasswordLength(ctx, currentPassword, false);
    const account = await auth.internalAdapter.findCredentialAccount(user.id);
    if (!account?.password) throw fail("BAD_REQUEST", "CREDENTIAL_ACCOUNT_NOT_FOUND");
    // Hash first, as the reference does, so success and failure cost about the same time.
    const hash = await auth.password.hash(newPassword);
    if (!(await auth.password.verify({ hash: account.password, password: currentPassword }))) {
      throw fail("BAD_REQUEST", "INVALID_PASSWORD");
    }
    await auth.internalAdapter.updateAccount(account.id, { password: hash }, ctx);
    let token: string | null = null;
    if (revokeOtherSessions) {
      await auth.internalAdapter.deleteUserSessions(user.id, ctx);
      const client = { ipAddress: getClientIP(ctx.headers, auth.options), userAgent: ctx.headers.get("user-agent") };
      const session = await auth.internalAdapter.createSession(user.id, false, client, ctx);
      if (!session) throw fail("INTERNAL_SERVER_ERROR", "FAILED_TO_GET_SESSION");
      await setSessionCookie(ctx, { session, user });
      token = session.token;
    }
    return { token, user: toOutput(auth.schema, "user", user) };
  },
);

/**
 * `POST /set-password`: gives a password to a user who has none (an OAuth-only user, or a
 * credential row without a password). An HTTP route per the spec; the reference keeps it
 * server-only. A user who already has one gets 400 `PASSWORD_ALREADY_SET`.
 */
export const setPassword = endpoint(
  "/set-password",
  { method: "POST", body: v.object({ newPassword: v.string() }), use: [sensitiveSessionMiddleware] },
  async (ctx) => {
    const auth = ctx.context;
    const { newPassword } = ctx.body;
    const { user } = auth.session;
    assertPasswordLength(ctx, newPassword);
    const account = await auth.internalAdapter.findCredentialAccount(user.id);
    if (account?.password) throw fail("BAD_REQUEST", "PASSWORD_ALREADY_SET");
    const hash = await auth.password.hash(newPassword);
    if (account) await auth.internalAdapter.updateAccount(account.id, { password: hash }, ctx);
    else await auth.internalAdapter.linkAccount({ userId: user.id, providerId: "credential", accountId: user.id, password: hash }, ctx);
    return { status: true };
  },
);

/** `POST /verify-password`: `{ status: true }` when the password is the user's, else 400 `INVALID_PASSWORD`. */
export const verifyPassword = endpoint(
  "/verify-password",
  { method: "POST", body: v.object({ password: v.string() }), use: [sensitiveSessionMiddleware] },
  async (ctx) => {
    if (!(await checkCurrentPassword(ctx, ctx.context.session.user.id, ctx.body.password))) {
      throw fail("BAD_REQUEST", "INVALID_PASSWORD");
    }
    return { status: true };
  },
);
