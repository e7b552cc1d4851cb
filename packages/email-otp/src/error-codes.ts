import { defineErrorCodes } from "@latchkey/core";

/** The plugin's error codes and the reference's messages. */
export const EMAIL_OTP_ERROR_CODES = defineErrorCodes({
  OTP_EXPIRED: "OTP expired",
  INVALID_OTP: "Invalid OTP",
  TOO_MANY_ATTEMPTS: "Too many attempts",
});
