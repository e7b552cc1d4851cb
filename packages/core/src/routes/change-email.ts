import * as v from "valibot";
import { endpoint } from "../api/endpoint.js";
import { email } from "../api/validation.js";
import { APIError } from "../errors/api-error.js";
import { fail } from "../errors/index.js";
import { setSessionCookie } from "../session/session-cookie.js";
import { sensitiveSessionMiddleware } from "../session/session-middleware.js";
import { createEmailVerificationToken, verificationLink } from "../mail/email-verification-token.js";
import { deliver } from "../mail/mail-delivery.js";

/** The reference answers these two with a message and no code. */
const refuse = (message: string): APIError => new APIError("BAD_REQUEST", { message });

/**
 * `POST /change-email`: starts an email change for the signed-in user.
 * - an unverified user with `updateEmailWithoutVerification`: changed at once, and the new
 *   address gets a verification link when a sender is configured;
 * - a verified user with `sendChangeEmailConfirmation`: the current address gets a link
 *   that, followed, mails the new address;
 * - otherwise the new address gets a link that applies the change.
 * An address that is taken answers the same `{status: true}` and mails nothing.
 */
export const changeEmail = endpoint(
  "/change-email",
  {
    method: "POST",
    body: v.object({ newEmail: v.pipe(v.string(), email()), callbackURL: v.optional(v.string()) }),
    use: [sensitiveSessionMiddleware],
  },
  async (ctx) => {
    const auth = ctx.context;
    const options = auth.options.user?.changeEmail;
    if (!options?.enabled) {
      auth.logger.error("Change email is disabled.");
      throw fail("BAD_REQUEST", "CHANGE_EMAIL_DISABLED");
    }
    const { session, user } = auth.session;
    const newEmail = ctx.body.newEmail.toLowerCase();
    if (newEmail === user.email) throw refuse("Email is the same");
    // Decide on a usable flow before looking the address up: refusing only for free
    // addresses would tell which ones are taken.
    const sendVerification = auth.options.emailVerification?.sendVerificationEmail;
    const expiresIn = auth.options.emailVerification?.expiresIn;
    const updateNow = user.emailVerified !== true && !!options.updateEmailWithoutVerification;
    const sendConfirmation =
      sendVerification && user.emailVerified ? options.sendChangeEmailConfirmation : undefined;
    if (!updateNow && !sendConfirmation && !sendVerification) {
      auth.logger.error("Verification email isn't enabled.");
      throw refuse("Verification email isn't enabled");
    }
    const link = (token: string): string => verificationLink(auth.baseURL, token, ctx.body.callbackURL);

    if (await auth.internalAdapter.findUserByEmail(newEmail)) {
      // Same signing work as a real request; nothing is mailed or changed.
      await createEmailVerificationToken(auth.secret, user.email, newEmail, expiresIn);
      auth.logger.info("Change email attempt for an existing email");
      return { status: true };
    }
    if (updateNow) {
      await auth.internalAdapter.updateUser(user.id, { email: newEmail }, ctx);
      const changed = { ...user, email: newEmail };
      await setSessionCookie(ctx, { session, user: changed });
      if (sendVerification) {
        const token = await createEmailVerificationToken(auth.secret, newEmail, undefined, expiresIn);
        await deliver(ctx, "verification", () =>
          sendVerification({ user: changed, url: link(token), token }, ctx.request),
        );
      }
      return { status: true };
    }
    if (sendConfirmation) {
      const token = await createEmailVerificationToken(
        auth.secret,
        user.email,
        newEmail,
        expiresIn,
        "change-email-confirmation",
      );
      await deliver(ctx, "change-email confirmation", () =>
        sendConfirmation({ user, newEmail, url: link(token), token }, ctx.request),
      );
      return { status: true };
    }
    const token = await createEmailVerificationToken(
      auth.secret,
      user.email,
      newEmail,
      expiresIn,
      "change-email-verification",
    );
    // Checked above: with neither of the other flows, a sender is configured.
    const send = sendVerification!;
    await deliver(ctx, "verification", () =>
      send({ user: { ...user, email: newEmail }, url: link(token), token }, ctx.request),
    );
    return { status: true };
  },
);
