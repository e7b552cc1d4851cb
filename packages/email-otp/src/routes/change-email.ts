import {
  APIError,
  endpoint,
  fail,
  isEmail,
  sensitiveSessionMiddleware,
  setSessionCookie,
  type EndpointContext,
  type WithSession,
} from "@latchkey/core";
import * as v from "valibot";
import { evenly, mailOTP } from "../mail.js";
import type { ResolvedEmailOTPOptions } from "../options.js";
import { issueOTP, redeemOTP } from "../otp-verification.js";
import { otpIdentifier } from "../otp-store.js";

const refuse = (message: string): APIError => new APIError("BAD_REQUEST", { message });

/** The signed-in user's address and the requested one, lower-cased, after the shared checks. */
function addresses(ctx: EndpointContext<unknown, unknown, WithSession>, options: ResolvedEmailOTPOptions, newEmail: string): { email: string; newEmail: string } {
  if (!options.changeEmail.enabled) {
    ctx.context.logger.error("Change email with OTP is disabled.");
    throw refuse("Change email with OTP is disabled");
  }
  const email = ctx.context.session.user.email.toLowerCase();
  const next = newEmail.toLowerCase();
  if (!isEmail(next)) throw fail("BAD_REQUEST", "INVALID_EMAIL");
  if (next === email) throw refuse("Email is the same");
  return { email, newEmail: next };
}

/** `change-email-otp-<current>-<new>`: the reference's identifier of an email-change code. */
const changeIdentifier = (email: string, newEmail: string): string => otpIdentifier("change-email", `${email}-${newEmail}`);

/**
 * `POST /email-otp/request-email-change` `{ newEmail, otp? }` (sensitive session): mails a
 * `change-email` code to the new address, unless it already has a user (same answer). With
 * `changeEmail.verifyCurrentEmail`, `otp` must first be an `email-verification` code of the
 * current address. `{ success: true }`.
 */
export const requestEmailChangeEmailOTP = (options: ResolvedEmailOTPOptions) =>
  endpoint(
    "/email-otp/request-email-change",
    { method: "POST", body: v.object({ newEmail: v.string(), otp: v.optional(v.string()) }), use: [sensitiveSessionMiddleware] },
    async (ctx) => {
      const { email, newEmail } = addresses(ctx, options, ctx.body.newEmail);
      if (options.changeEmail.verifyCurrentEmail) {
        if (!ctx.body.otp) throw refuse("OTP is required to verify current email");
        await redeemOTP(ctx, options, otpIdentifier("email-verification", email), ctx.body.otp);
      }
      return evenly(async () => {
        const identifier = changeIdentifier(email, newEmail);
        const otp = await issueOTP(ctx.context, ctx, options, newEmail, "change-email", identifier);
        if (await ctx.context.internalAdapter.findUserByEmail(newEmail)) {
          await ctx.context.internalAdapter.deleteVerificationByIdentifier(identifier);
        } else {
          await mailOTP(ctx, options, { email: newEmail, otp, type: "change-email" });
        }
      });
    },
  );

/**
 * `POST /email-otp/change-email` `{ newEmail, otp }` (sensitive session): redeems the
 * `change-email` code and moves the user to the new address (verified), refreshing the
 * session cookie. `{ success: true }`; 400 "Email already in use" when it was taken meanwhile.
 */
export const changeEmailEmailOTP = (options: ResolvedEmailOTPOptions) =>
  endpoint(
    "/email-otp/change-email",
    { method: "POST", body: v.object({ newEmail: v.string(), otp: v.string() }), use: [sensitiveSessionMiddleware] },
    async (ctx) => {
      const auth = ctx.context;
      const { email, newEmail } = addresses(ctx, options, ctx.body.newEmail);
      await redeemOTP(ctx, options, changeIdentifier(email, newEmail), ctx.body.otp);
      const current = await auth.internalAdapter.findUserByEmail(email);
      if (!current) throw fail("BAD_REQUEST", "USER_NOT_FOUND");
      if (await auth.internalAdapter.findUserByEmail(newEmail)) throw refuse("Email already in use");
      const hooks = auth.options.emailVerification;
      await hooks?.beforeEmailVerification?.(current.user, ctx.request);
      const updated = await auth.internalAdapter.updateUser(current.user.id, { email: newEmail, emailVerified: true }, ctx);
      if (updated) await hooks?.afterEmailVerification?.(updated, ctx.request);
      const { session, user } = auth.session;
      await setSessionCookie(ctx, { session, user: { ...user, email: newEmail, emailVerified: true } });
      return { success: true };
    },
  );
