import { endpoint, fail, formCsrfMiddleware, isEmail, APIError } from "@latchkey/core";
import * as v from "valibot";
import { evenly, mailOTP } from "../mail.js";
import { OTP_TYPES, type ResolvedEmailOTPOptions } from "../options.js";
import { issueOTP } from "../otp-verification.js";
import { otpIdentifier } from "../otp-store.js";

const body = v.object({ email: v.string(), type: v.picklist(OTP_TYPES) });

/**
 * `POST /email-otp/send-verification-otp` `{ email, type }`: stores a code and mails it. A code
 * is mailed only to an existing user, except `sign-in` codes while sign-up is allowed; either
 * way the answer is `{ success: true }` after the same time. `change-email` has its own route.
 */
export const sendVerificationOTP = (options: ResolvedEmailOTPOptions) =>
  endpoint("/email-otp/send-verification-otp", { method: "POST", body, use: [formCsrfMiddleware] }, async (ctx) => {
    const email = ctx.body.email.toLowerCase();
    if (!isEmail(email)) throw fail("BAD_REQUEST", "INVALID_EMAIL");
    const { type } = ctx.body;
    if (type === "change-email") throw new APIError("BAD_REQUEST", { message: "Invalid OTP type" });
    return evenly(async () => {
      const otp = await issueOTP(ctx.context, ctx, options, email, type);
      const mailsAnyone = type === "sign-in" && !options.disableSignUp;
      if (mailsAnyone || (await ctx.context.internalAdapter.findUserByEmail(email))) {
        await mailOTP(ctx, options, { email, otp, type });
      } else {
        // As the reference: the code is stored, then dropped again when nobody may receive it.
        await ctx.context.internalAdapter.deleteVerificationByIdentifier(otpIdentifier(type, email));
      }
    });
  });

/** Server-only `auth.api.createVerificationOTP({ body: { email, type } })`: stores a code and returns it (nothing mailed). */
export const createVerificationOTP = (options: ResolvedEmailOTPOptions) =>
  endpoint("/email-otp/create-verification-otp", { method: "POST", body, serverOnly: true }, async (ctx) => {
    const email = ctx.body.email.toLowerCase();
    const { type } = ctx.body;
    const otp = await issueOTP(ctx.context, ctx, options, email, type);
    return otp;
  });
