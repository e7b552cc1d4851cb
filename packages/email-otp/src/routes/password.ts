import { endpoint, fail, type EndpointContext } from "@latchkey/core";
import * as v from "valibot";
import { evenly, mailOTP } from "../mail.js";
import type { ResolvedEmailOTPOptions } from "../options.js";
import { issueOTP, redeemOTP } from "../otp-verification.js";
import { otpIdentifier } from "../otp-store.js";

/** Stores a `forget-password` code and mails it when the address has a user; the same answer either way. */
function requestReset(ctx: EndpointContext, options: ResolvedEmailOTPOptions, rawEmail: string) {
  const email = rawEmail.toLowerCase();
  return evenly(async () => {
    const otp = await issueOTP(ctx.context, ctx, options, email, "forget-password");
    if (await ctx.context.internalAdapter.findUserByEmail(email)) {
      await mailOTP(ctx, options, { email, otp, type: "forget-password" });
    } else {
      await ctx.context.internalAdapter.deleteVerificationByIdentifier(otpIdentifier("forget-password", email));
    }
  });
}

const emailBody = v.object({ email: v.string() });

/** `POST /email-otp/request-password-reset` `{ email }`: mails a password-reset code; `{ success: true }`. */
export const requestPasswordResetEmailOTP = (options: ResolvedEmailOTPOptions) =>
  endpoint("/email-otp/request-password-reset", { method: "POST", body: emailBody }, (ctx) =>
    requestReset(ctx, options, ctx.body.email),
  );

/** `POST /forget-password/email-otp` `{ email }`: the deprecated name of `/email-otp/request-password-reset`. */
export const forgetPasswordEmailOTP = (options: ResolvedEmailOTPOptions) =>
  endpoint("/forget-password/email-otp", { method: "POST", body: emailBody }, (ctx) => {
    ctx.context.logger.warn('"/forget-password/email-otp" is deprecated: use "/email-otp/request-password-reset".');
    return requestReset(ctx, options, ctx.body.email);
  });

/**
 * `POST /email-otp/reset-password` `{ email, otp, password }`: redeems a `forget-password`
 * code and sets the password (creating the credential account when the user has none), marks
 * the email verified, and with `emailAndPassword.revokeSessionsOnPasswordReset` ends every
 * session. `{ success: true }`.
 */
export const resetPasswordEmailOTP = (options: ResolvedEmailOTPOptions) =>
  endpoint(
    "/email-otp/reset-password",
    { method: "POST", body: v.object({ email: v.string(), otp: v.string(), password: v.string() }) },
    async (ctx) => {
      const auth = ctx.context;
      const email = ctx.body.email.toLowerCase();
      const { password } = ctx.body;
      const { minPasswordLength, maxPasswordLength } = auth.password.config;
      if (password.length < minPasswordLength) throw fail("BAD_REQUEST", "PASSWORD_TOO_SHORT");
      if (password.length > maxPasswordLength) throw fail("BAD_REQUEST", "PASSWORD_TOO_LONG");
      await redeemOTP(ctx, options, otpIdentifier("forget-password", email), ctx.body.otp);
      const found = await auth.internalAdapter.findUserByEmail(email);
      if (!found) throw fail("BAD_REQUEST", "USER_NOT_FOUND");
      const { user } = found;
      const hash = await auth.password.hash(password);
      if (await auth.internalAdapter.findCredentialAccount(user.id)) {
        await auth.internalAdapter.updatePassword(user.id, hash, ctx);
      } else {
        await auth.internalAdapter.linkAccount({ userId: user.id, providerId: "credential", accountId: user.id, password: hash }, ctx);
      }
      await auth.options.emailAndPassword?.onPasswordReset?.({ user }, ctx.request);
      if (!user.emailVerified) await auth.internalAdapter.updateUser(user.id, { emailVerified: true }, ctx);
      if (auth.options.emailAndPassword?.revokeSessionsOnPasswordReset) await auth.internalAdapter.deleteUserSessions(user.id, ctx);
      return { success: true };
    },
  );
