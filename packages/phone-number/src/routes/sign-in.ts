import { endpoint, fail, getClientIP, setSessionCookie, toOutput } from "@latchkey/core";
import * as v from "valibot";
import { phoneField } from "../phone-field.js";
import { PHONE_NUMBER_ERROR_CODES } from "../error-codes.js";
import type { ResolvedPhoneNumberOptions } from "../options.js";
import { generateCode, storeCode } from "../otp.js";
import { assertPasswordLength } from "../password.js";
import { assertValidPhone, findUserByPhone } from "../user-lookup.js";

const body = v.object({
  phoneNumber: phoneField(),
  password: v.string(),
  rememberMe: v.optional(v.boolean()),
});

/**
 * `POST /sign-in/phone-number` `{ phoneNumber, password, rememberMe? }`: a password sign-in by
 * number; `{ token, user }` and the session cookie. An unknown number and a wrong password get
 * the same 401 `INVALID_PHONE_NUMBER_OR_PASSWORD`. With `requireVerification`, an unverified
 * number gets a fresh code by SMS and 401 `PHONE_NUMBER_NOT_VERIFIED`.
 */
export function signInPhoneNumber(options: ResolvedPhoneNumberOptions) {
  return endpoint("/sign-in/phone-number", { method: "POST", body }, async (ctx) => {
    const { phoneNumber, password, rememberMe } = ctx.body;
    await assertValidPhone(options, phoneNumber);
    assertPasswordLength(ctx, password, false);
    const refused = () => PHONE_NUMBER_ERROR_CODES.fail("INVALID_PHONE_NUMBER_OR_PASSWORD", "UNAUTHORIZED");
    const user = await findUserByPhone(ctx, phoneNumber);
    if (!user) {
      // Spend a hash's time anyway, so an unknown number answers as slowly as a wrong password.
      await ctx.context.password.hash(password);
      throw refused();
    }
    if (options.requireVerification && !user.phoneNumberVerified) {
      const code = generateCode(options.otpLength);
      await storeCode(ctx, options, phoneNumber, code, false);
      await options.sendOTP?.({ phoneNumber, code }, ctx);
      throw PHONE_NUMBER_ERROR_CODES.fail("PHONE_NUMBER_NOT_VERIFIED", "UNAUTHORIZED");
    }
    const account = await ctx.context.internalAdapter.findCredentialAccount(user.id);
    if (!account) throw refused();
    if (!account.password) throw PHONE_NUMBER_ERROR_CODES.fail("UNEXPECTED_ERROR", "UNAUTHORIZED");
    if (!(await ctx.context.password.verify({ hash: account.password, password }))) throw refused();
    const session = await ctx.context.internalAdapter.createSession(
      user.id,
      rememberMe === false,
      { ipAddress: getClientIP(ctx.headers, ctx.context.options), userAgent: ctx.headers.get("user-agent") },
      ctx,
    );
    if (!session) throw fail("UNAUTHORIZED", "FAILED_TO_CREATE_SESSION");
    await setSessionCookie(ctx, { session, user }, rememberMe === false);
    return { token: session.token, user: toOutput(ctx.context.schema, "user", user) };
  });
}
