import { endpoint } from "@latchkey/core";
import * as v from "valibot";
import { phoneField } from "../phone-field.js";
import { PHONE_NUMBER_ERROR_CODES } from "../error-codes.js";
import type { ResolvedPhoneNumberOptions } from "../options.js";
import { generateCode, storeCode } from "../otp.js";
import { assertValidPhone } from "../user-lookup.js";

const body = v.object({ phoneNumber: phoneField() });

/**
 * `POST /phone-number/send-otp` `{ phoneNumber }`: stores a new code for the number (valid
 * `expiresIn` seconds) and sends it with `sendOTP`; `{ message: "code sent" }`. 501
 * `SEND_OTP_NOT_IMPLEMENTED` without `sendOTP`.
 */
export function sendPhoneNumberOTP(options: ResolvedPhoneNumberOptions) {
  return endpoint("/phone-number/send-otp", { method: "POST", body }, async (ctx) => {
    const { sendOTP } = options;
    if (!sendOTP) {
      ctx.context.logger.warn("phoneNumber: sendOTP is not configured");
      throw PHONE_NUMBER_ERROR_CODES.fail("SEND_OTP_NOT_IMPLEMENTED", 501);
    }
    await assertValidPhone(options, ctx.body.phoneNumber);
    const code = generateCode(options.otpLength);
    await storeCode(ctx, options, ctx.body.phoneNumber, code);
    await sendOTP({ phoneNumber: ctx.body.phoneNumber, code }, ctx);
    return { message: "code sent" };
  });
}
