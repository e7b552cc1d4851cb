import type { LatchkeyPlugin } from "@latchkey/core";
import { PHONE_NUMBER_ERROR_CODES } from "./error-codes.js";
import { clearVerifiedFlag, refuseNumberChange } from "./hooks.js";
import {
  resolvePhoneNumberOptions,
  type PhoneNumberOptions,
  type ResolvedPhoneNumberOptions,
} from "./options.js";
import { consumePhoneNumberOTP } from "./routes/consume-otp.js";
import { requestPasswordResetPhoneNumber, resetPasswordPhoneNumber } from "./routes/password-reset.js";
import { sendPhoneNumberOTP } from "./routes/send-otp.js";
import { signInPhoneNumber } from "./routes/sign-in.js";
import { verifyPhoneNumber } from "./routes/verify.js";
import { phoneNumberSchema } from "./schema.js";

export { PHONE_NUMBER_ERROR_CODES, PHONE_NUMBER_ERROR_CODES as ERROR_CODES } from "./error-codes.js";
export type { PhoneCode, PhoneNumberOptions } from "./options.js";

type PhoneNumberEndpoints = {
  signInPhoneNumber: ReturnType<typeof signInPhoneNumber>;
  sendPhoneNumberOTP: ReturnType<typeof sendPhoneNumberOTP>;
  consumePhoneNumberOTP: ReturnType<typeof consumePhoneNumberOTP>;
  verifyPhoneNumber: ReturnType<typeof verifyPhoneNumber>;
  requestPasswordResetPhoneNumber: ReturnType<typeof requestPasswordResetPhoneNumber>;
  resetPasswordPhoneNumber: ReturnType<typeof resetPasswordPhoneNumber>;
};

/** The plugin object `phoneNumber()` returns. */
export interface PhoneNumberPlugin extends LatchkeyPlugin<"phone-number", PhoneNumberEndpoints> {
  id: "phone-number";
  options: ResolvedPhoneNumberOptions;
}

/**
 * Phone numbers on users: password sign-in by number, one-time codes by SMS to verify a number
 * (or sign it up, or change it), and password reset by code. Paths under `/phone-number` are
 * limited to 10 requests a minute per client.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [phoneNumber({ sendOTP: ({ phoneNumber, code }) => sms.send(phoneNumber, code) })] });
 */
export function phoneNumber(options?: PhoneNumberOptions): PhoneNumberPlugin {
  const resolved = resolvePhoneNumberOptions(options);
  return {
    id: "phone-number",
    endpoints: {
      signInPhoneNumber: signInPhoneNumber(resolved),
      sendPhoneNumberOTP: sendPhoneNumberOTP(resolved),
      consumePhoneNumberOTP: consumePhoneNumberOTP(resolved),
      verifyPhoneNumber: verifyPhoneNumber(resolved),
      requestPasswordResetPhoneNumber: requestPasswordResetPhoneNumber(resolved),
      resetPasswordPhoneNumber: resetPasswordPhoneNumber(resolved),
    },
    schema: phoneNumberSchema(resolved),
    hooks: { before: [refuseNumberChange] },
    databaseHooks: clearVerifiedFlag,
    rateLimit: [{ pathMatcher: (path) => path.startsWith("/phone-number"), window: 60, max: 10 }],
    errorCodes: PHONE_NUMBER_ERROR_CODES,
    options: resolved,
  };
}
