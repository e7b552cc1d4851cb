import type { LatchkeyPlugin } from "@latchkey/core";
import { EMAIL_OTP_ERROR_CODES } from "./error-codes.js";
import { resolveEmailOTPOptions, type EmailOTPOptions, type ResolvedEmailOTPOptions } from "./options.js";
import { changeEmailEmailOTP, requestEmailChangeEmailOTP } from "./routes/change-email.js";
import { checkVerificationOTP } from "./routes/check.js";
import { getVerificationOTP } from "./routes/get-otp.js";
import { forgetPasswordEmailOTP, requestPasswordResetEmailOTP, resetPasswordEmailOTP } from "./routes/password.js";
import { createVerificationOTP, sendVerificationOTP } from "./routes/send.js";
import { signInEmailOTP } from "./routes/sign-in.js";
import { verifyEmailOTP } from "./routes/verify-email.js";
import { overrideVerificationMail, signUpHook } from "./sign-up-hook.js";

export { EMAIL_OTP_ERROR_CODES, EMAIL_OTP_ERROR_CODES as ERROR_CODES } from "./error-codes.js";
export type { EmailOTPOptions, OTPStorage, OTPType } from "./options.js";

const makeEndpoints = (options: ResolvedEmailOTPOptions) => ({
  sendVerificationOTP: sendVerificationOTP(options),
  createVerificationOTP: createVerificationOTP(options),
  getVerificationOTP: getVerificationOTP(options),
  checkVerificationOTP: checkVerificationOTP(options),
  verifyEmailOTP: verifyEmailOTP(options),
  signInEmailOTP: signInEmailOTP(options),
  requestPasswordResetEmailOTP: requestPasswordResetEmailOTP(options),
  forgetPasswordEmailOTP: forgetPasswordEmailOTP(options),
  resetPasswordEmailOTP: resetPasswordEmailOTP(options),
  requestEmailChangeEmailOTP: requestEmailChangeEmailOTP(options),
  changeEmailEmailOTP: changeEmailEmailOTP(options),
});

/** The routes each rate-limited on their own, as the reference lists them. */
const LIMITED_PATHS = [
  "/email-otp/send-verification-otp",
  "/email-otp/check-verification-otp",
  "/email-otp/verify-email",
  "/sign-in/email-otp",
  "/email-otp/request-password-reset",
  "/email-otp/reset-password",
  "/forget-password/email-otp",
  "/email-otp/request-email-change",
  "/email-otp/change-email",
];

/** The plugin object `emailOTP()` returns. */
export interface EmailOTPPlugin extends LatchkeyPlugin<"email-otp", ReturnType<typeof makeEndpoints>> {
  id: "email-otp";
  options: ResolvedEmailOTPOptions;
}

/**
 * One-time codes by email: sign-in (creating the user unless `disableSignUp`), email
 * verification, password reset and email change. Codes are rows of core's `verification`
 * table (`<type>-otp-<email>` → `<code>:<attempts>`), readable by Better Auth's `emailOTP()`.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [emailOTP({ sendVerificationOTP: ({ email, otp }) => mail(email, otp) })] });
 */
export function emailOTP(options: EmailOTPOptions): EmailOTPPlugin {
  const resolved = resolveEmailOTPOptions(options);
  return {
    id: "email-otp",
    endpoints: makeEndpoints(resolved),
    init: (auth) => {
      if (resolved.overrideDefaultEmailVerification) overrideVerificationMail(auth, resolved);
    },
    hooks: { after: [signUpHook(resolved)] },
    errorCodes: EMAIL_OTP_ERROR_CODES,
    rateLimit: LIMITED_PATHS.map((path) => ({
      pathMatcher: (p: string) => p === path,
      window: resolved.rateLimit.window,
      max: resolved.rateLimit.max,
    })),
    options: resolved,
  };
}
