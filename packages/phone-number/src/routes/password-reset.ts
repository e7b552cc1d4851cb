import { deliver, endpoint, withMinimumDuration } from "@latchkey/core";
import * as v from "valibot";
import { phoneField } from "../phone-field.js";
import { PHONE_NUMBER_ERROR_CODES } from "../error-codes.js";
import type { ResolvedPhoneNumberOptions } from "../options.js";
import { consumeCode, generateCode, resetIdentifier, storeCode } from "../otp.js";
import { assertPasswordLength } from "../password.js";
import { findUserByPhone } from "../user-lookup.js";

/**
 * A known and an unknown number answer no sooner than this, so the time of an SMS send does
 * not tell them apart.
 */
export const RESET_ANSWER_FLOOR_MS = 500;

/**
 * `POST /phone-number/request-password-reset` `{ phoneNumber }`: stores a reset code (also for
 * an unknown number, as the reference does) and sends it with `sendPasswordResetOTP` when the
 * number has a user; `{ status: true }` either way, in the same time; a sender failure is logged.
 */
export function requestPasswordResetPhoneNumber(options: ResolvedPhoneNumberOptions) {
  const body = v.object({ phoneNumber: phoneField() });
  return endpoint("/phone-number/request-password-reset", { method: "POST", body }, async (ctx) =>
    withMinimumDuration(RESET_ANSWER_FLOOR_MS, async () => {
      const { phoneNumber } = ctx.body;
      const user = await findUserByPhone(ctx, phoneNumber);
      const code = generateCode(options.otpLength);
      await storeCode(ctx, options, resetIdentifier(phoneNumber), code);
      const send = options.sendPasswordResetOTP;
      if (user && send)
        await deliver(ctx, "password reset SMS", async () => send({ phoneNumber, code }, ctx));
      return { status: true };
    }),
  );
}

/**
 * `POST /phone-number/reset-password` `{ otp, phoneNumber, newPassword }`: uses up the reset
 * code, then sets the password (creating the credential account when the user has none), runs
 * `onPasswordReset` and, with `revokeSessionsOnPasswordReset`, ends the user's sessions.
 */
export function resetPasswordPhoneNumber(options: ResolvedPhoneNumberOptions) {
  const body = v.object({ otp: v.string(), phoneNumber: phoneField(), newPassword: v.string() });
  return endpoint("/phone-number/reset-password", { method: "POST", body }, async (ctx) => {
    const { otp, phoneNumber, newPassword } = ctx.body;
    await consumeCode(ctx, options, resetIdentifier(phoneNumber), otp);
    const user = await findUserByPhone(ctx, phoneNumber);
    if (!user) throw PHONE_NUMBER_ERROR_CODES.fail("UNEXPECTED_ERROR", "BAD_REQUEST");
    assertPasswordLength(ctx, newPassword);
    const { internalAdapter, password } = ctx.context;
    const hash = await password.hash(newPassword);
    if (await internalAdapter.findCredentialAccount(user.id))
      await internalAdapter.updatePassword(user.id, hash, ctx);
    else
      await internalAdapter.linkAccount(
        { userId: user.id, providerId: "credential", accountId: user.id, password: hash },
        ctx,
      );
    const { emailAndPassword } = ctx.context.options;
    await emailAndPassword?.onPasswordReset?.({ user }, ctx.request);
    if (emailAndPassword?.revokeSessionsOnPasswordReset) await internalAdapter.deleteUserSessions(user.id);
    return { status: true };
  });
}
