import type { AuthContext, HookEntry } from "@latchkey/core";
import { mailOTP, mailOTPFrom } from "./mail.js";
import type { ResolvedEmailOTPOptions } from "./options.js";
import { issueOTP } from "./otp-verification.js";

/** The user's email in a `/sign-up*` answer, if it returned one. */
function signedUpEmail(returned: unknown): string | null {
  const user = (returned as { user?: { email?: unknown } } | null | undefined)?.user;
  return typeof user?.email === "string" ? user.email : null;
}

/**
 * `sendVerificationOnSignUp` (without `overrideDefaultEmailVerification`): after every
 * `/sign-up*` answer that carries a user, an `email-verification` code is stored and mailed.
 */
export const signUpHook = (options: ResolvedEmailOTPOptions): HookEntry => ({
  matcher: "*",
  when: (ctx) => ctx.path.startsWith("/sign-up") && options.sendVerificationOnSignUp && !options.overrideDefaultEmailVerification,
  handler: async (ctx) => {
    const email = signedUpEmail(ctx.context.returned);
    if (!email) return;
    const otp = await issueOTP(ctx.context, ctx, options, email, "email-verification");
    await mailOTP(ctx, options, { email, otp, type: "email-verification" });
  },
});

/**
 * `overrideDefaultEmailVerification`: core's verification mails (after sign-up, on sign-in,
 * `/send-verification-email`) send an `email-verification` code instead of a link. Core reads
 * `emailVerification.sendVerificationEmail` at request time, so it is replaced once at start-up.
 */
export function overrideVerificationMail(auth: AuthContext, options: ResolvedEmailOTPOptions): void {
  auth.options.emailVerification = {
    ...auth.options.emailVerification,
    sendVerificationEmail: async ({ user }) => {
      const email = user.email.toLowerCase();
      const otp = await issueOTP(auth, undefined, options, email, "email-verification");
      await mailOTPFrom(auth, options, { email, otp, type: "email-verification" });
    },
  };
}
