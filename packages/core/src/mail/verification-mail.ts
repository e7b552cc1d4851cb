import type { EndpointContext } from "../api/context.js";
import type { User } from "../db/models.js";
import { fail } from "../errors/index.js";
import { createEmailVerificationToken, verificationLink } from "./email-verification-token.js";
import { deliver } from "./mail-delivery.js";

/**
 * Mails `user` a verification link. `quiet` (sign-up, sign-in) swallows a sender failure as
 * the reference does there; `/send-verification-email` lets it surface. Without a sender
 * configured: 400 `VERIFICATION_EMAIL_NOT_ENABLED` (quiet callers check first).
 */
export async function mailVerificationLink(
  ctx: EndpointContext,
  user: User,
  callbackURL: string | undefined,
  quiet: boolean,
): Promise<void> {
  const options = ctx.context.options.emailVerification;
  const send = options?.sendVerificationEmail;
  if (!send) {
    ctx.context.logger.error("Verification email isn't enabled.");
    throw fail("BAD_REQUEST", "VERIFICATION_EMAIL_NOT_ENABLED");
  }
  const token = await createEmailVerificationToken(
    ctx.context.secret,
    user.email,
    undefined,
    options.expiresIn,
  );
  const url = verificationLink(ctx.context.baseURL, token, callbackURL);
  if (quiet) await deliver(ctx, "verification", () => send({ user, url, token }, ctx.request));
  else await send({ user, url, token }, ctx.request);
}

/** After sign-up: mails the link when `emailVerification.sendOnSignUp` (default: `requireEmailVerification`). */
export async function mailVerificationOnSignUp(
  ctx: EndpointContext,
  user: User,
  callbackURL: string | undefined,
): Promise<void> {
  const { emailVerification, emailAndPassword } = ctx.context.options;
  if (!(emailVerification?.sendOnSignUp ?? emailAndPassword?.requireEmailVerification)) return;
  if (emailVerification?.sendVerificationEmail) await mailVerificationLink(ctx, user, callbackURL, true);
}

/**
 * Before sign-in refuses an unverified user (403 `EMAIL_NOT_VERIFIED`): mails a fresh link
 * when `emailVerification.sendOnSignIn`. Only reached after the password matched, so it
 * cannot be used to mail strangers.
 */
export async function mailVerificationOnSignIn(
  ctx: EndpointContext,
  user: User,
  callbackURL: string | undefined,
): Promise<void> {
  const options = ctx.context.options.emailVerification;
  if (options?.sendVerificationEmail && options.sendOnSignIn)
    await mailVerificationLink(ctx, user, callbackURL, true);
}
