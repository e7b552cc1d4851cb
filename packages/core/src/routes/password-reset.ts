import * as v from "valibot";
import type { EndpointContext } from "../api/context.js";
import { endpoint } from "../api/endpoint.js";
import { email } from "../api/validation.js";
import { APIError } from "../errors/api-error.js";
import { fail } from "../errors/index.js";
import { assertTrustedCallbackURL } from "../security/origin-check.js";
import { deliver, withMinimumDuration } from "../mail/mail-delivery.js";
import { assertPasswordLength } from "./password-rules.js";
import { resolveWithQuery } from "../security/redirect-url.js";
import { createResetToken, redeemResetToken, resetIdentifier } from "./reset-token.js";

/** The one answer for known and unknown addresses alike (anti-enumeration). */
const RESET_REQUESTED = {
  status: true,
  message: "If this email exists in our system, check your email for the reset link",
} as const;

/**
 * Known and unknown addresses answer no sooner than this. The reference only does dummy
 * work for unknown ones, so a slow mail sender still told them apart by timing.
 */
const REQUEST_FLOOR_MS = 500;

/**
 * `POST /request-password-reset`: stores a single-use token (`reset-password:<token>` → user
 * id) and mails the link `<baseURL>/reset-password/<token>?callbackURL=<redirectTo>`.
 */
export const requestPasswordReset = endpoint(
  "/request-password-reset",
  {
    method: "POST",
    body: v.object({ email: v.pipe(v.string(), email()), redirectTo: v.optional(v.string()) }),
  },
  async (ctx) => {
    const auth = ctx.context;
    const send = auth.options.emailAndPassword?.sendResetPassword;
    if (!send) {
      auth.logger.error("Reset password isn't enabled. Pass an emailAndPassword.sendResetPassword function.");
      throw new APIError("BAD_REQUEST", {
        message: "Reset password isn't enabled",
        code: "RESET_PASSWORD_DISABLED",
      });
    }
    const { email: address, redirectTo } = ctx.body;
    return withMinimumDuration(REQUEST_FLOOR_MS, async () => {
      const found = await auth.internalAdapter.findUserByEmail(address);
      if (!found) {
        // The reference's stand-in for the real path's work: one token, one lookup.
        await auth.internalAdapter.findVerificationValue(resetIdentifier(createResetToken()));
        auth.logger.warn("Reset Password: User not found");
        return RESET_REQUESTED;
      }
      const lifetime = auth.options.emailAndPassword?.resetPasswordTokenExpiresIn || 3600;
      const token = createResetToken();
      await auth.internalAdapter.createVerificationValue(
        {
          identifier: resetIdentifier(token),
          value: found.user.id,
          expiresAt: new Date(Date.now() + lifetime * 1000),
        },
        ctx,
      );
      const url = `${auth.baseURL}/reset-password/${token}?callbackURL=${redirectTo ? encodeURIComponent(redirectTo) : ""}`;
      await deliver(ctx, "reset-password", () => send({ user: found.user, url, token }, ctx.request));
      return RESET_REQUESTED;
    });
  },
);

/** A redirect to `target` resolved against the base URL, with `params` set on it. */
function redirectTo(ctx: EndpointContext, target: string, params: Record<string, string>): APIError {
  const url = resolveWithQuery(target, ctx.context.baseURL, params);
  // Unparsable even against the base URL: refused like an untrusted one (the reference: 500).
  return url === null ? fail("FORBIDDEN", "INVALID_CALLBACK_URL") : ctx.redirect(url);
}

/**
 * `GET /reset-password/:token`: the mailed link. Redirects to `callbackURL?token=<token>`
 * while the token is live, else to `callbackURL?error=INVALID_TOKEN` (the error page when
 * callbackURL is empty). It only looks: the token is spent by `POST /reset-password`.
 */
export const requestPasswordResetCallback = endpoint(
  "/reset-password/:token",
  { method: "GET", query: v.object({ callbackURL: v.string() }) },
  async (ctx) => {
    const { callbackURL } = ctx.query;
    await assertTrustedCallbackURL(ctx, callbackURL);
    const token = ctx.params.token;
    const invalid = (): APIError =>
      redirectTo(ctx, callbackURL || `${ctx.context.baseURL}/error`, { error: "INVALID_TOKEN" });
    if (!token || !callbackURL) throw invalid();
    const row = await ctx.context.internalAdapter.findVerificationValue(resetIdentifier(token));
    if (!row || row.expiresAt.getTime() < Date.now()) throw invalid();
    throw redirectTo(ctx, callbackURL, { token });
  },
);

/**
 * `POST /reset-password`: sets a new password with a token from the body or the query.
 * The password rules are checked before the token is spent; the token is spent atomically,
 * so of concurrent redemptions exactly one succeeds.
 */
export const resetPassword = endpoint(
  "/reset-password",
  {
    method: "POST",
    query: v.optional(v.object({ token: v.optional(v.string()) })),
    body: v.object({ newPassword: v.string(), token: v.optional(v.string()) }),
  },
  async (ctx) => {
    const auth = ctx.context;
    const token = ctx.body.token || ctx.query?.token;
    if (!token) throw fail("BAD_REQUEST", "INVALID_TOKEN");
    const { newPassword } = ctx.body;
    assertPasswordLength(ctx, newPassword);
    const user = await redeemResetToken(ctx, token, newPassword);
    const options = auth.options.emailAndPassword;
    await options?.onPasswordReset?.({ user }, ctx.request);
    if (options?.revokeSessionsOnPasswordReset) await auth.internalAdapter.deleteUserSessions(user.id, ctx);
    return { status: true };
  },
);
