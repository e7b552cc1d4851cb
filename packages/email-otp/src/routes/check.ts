import { endpoint, fail, isEmail } from "@latchkey/core";
import * as v from "valibot";
import { OTP_TYPES, type ResolvedEmailOTPOptions } from "../options.js";
import { redeemOTP } from "../otp-verification.js";
import { otpIdentifier } from "../otp-store.js";

const body = v.object({ email: v.string(), type: v.picklist(OTP_TYPES), otp: v.string() });

/**
 * `POST /email-otp/check-verification-otp` `{ email, type, otp }`: whether the code is right,
 * without using it up (`{ success: true }`). A wrong code costs an attempt, as on the routes
 * that redeem codes; 400 `USER_NOT_FOUND` after a right code for an address without a user.
 */
export const checkVerificationOTP = (options: ResolvedEmailOTPOptions) =>
  endpoint("/email-otp/check-verification-otp", { method: "POST", body }, async (ctx) => {
    const email = ctx.body.email.toLowerCase();
    if (!isEmail(email)) throw fail("BAD_REQUEST", "INVALID_EMAIL");
    // Taken and put back rather than read and rewritten: parallel wrong guesses cannot share
    // one attempt (the reference's read-then-update loses counts here, DIVERGENCES.md row 81).
    await redeemOTP(ctx, options, otpIdentifier(ctx.body.type, email), ctx.body.otp, { keep: true });
    if (!(await ctx.context.internalAdapter.findUserByEmail(email))) throw fail("BAD_REQUEST", "USER_NOT_FOUND");
    return { success: true };
  });
