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
  const token = await createEmailVerificationToken(ctx.context.secret, user.email, undefined, options.expiresIn);
  const url = verificationLink(ctx.context.baseURL, token, callbackURL);
  if (quiet) await deliver(ctx, "verification", () => send({ user, url, token }, ctx.request));
  else await send({ user, url, token }, ctx.request);
}
