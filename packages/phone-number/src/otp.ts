import { constantTimeEqual, generateRandomString, type EndpointContext } from "@latchkey/core";
import { PHONE_NUMBER_ERROR_CODES } from "./error-codes.js";
import type { ResolvedPhoneNumberOptions } from "./options.js";

/** A code of `length` digits. */
export const generateCode = (length: number): string => generateRandomString(length, "0-9");

/** Where the password-reset code of a number is stored. */
export const resetIdentifier = (phoneNumber: string): string => `${phoneNumber}-request-password-reset`;

/**
 * Stores a code as the reference does: verification `identifier`, value `<code>:<wrong
 * attempts>` (the sign-in's verification reminder stores the bare code, read as 0 attempts).
 */
export async function storeCode(
  ctx: EndpointContext,
  options: ResolvedPhoneNumberOptions,
  identifier: string,
  code: string,
  withAttempts = true,
): Promise<void> {
  await ctx.context.internalAdapter.createVerificationValue(
    {
      identifier,
      value: withAttempts ? `${code}:0` : code,
      expiresAt: new Date(Date.now() + options.expiresIn * 1000),
    },
    ctx,
  );
}

const attemptsOf = (raw: string | undefined): number => {
  const n = Number(raw ?? 0);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
};

/**
 * Checks `code` against the stored one and uses it up. The row is taken out atomically first
 * (expired or not), so of concurrent requests only one holds it: an expired code or one past
 * its attempts is gone (400 `OTP_EXPIRED`, 403 `TOO_MANY_ATTEMPTS`); a right code ends there
 * (single use); a wrong one goes back with one more attempt counted (400 `INVALID_OTP`). A
 * request that finds no row, also while another holds it, gets 400 `OTP_NOT_FOUND`: no guess
 * can pass or go uncounted.
 */
export async function consumeCode(
  ctx: EndpointContext,
  options: ResolvedPhoneNumberOptions,
  identifier: string,
  code: string,
): Promise<void> {
  const { internalAdapter } = ctx.context;
  const taken = await internalAdapter.consumeVerificationValue(identifier, { includeExpired: true });
  if (!taken) throw PHONE_NUMBER_ERROR_CODES.fail("OTP_NOT_FOUND", "BAD_REQUEST");
  if (new Date(taken.expiresAt).getTime() < Date.now())
    throw PHONE_NUMBER_ERROR_CODES.fail("OTP_EXPIRED", "BAD_REQUEST");
  const [expected = "", rawAttempts] = taken.value.split(":");
  const attempts = attemptsOf(rawAttempts);
  if (attempts >= options.allowedAttempts)
    throw PHONE_NUMBER_ERROR_CODES.fail("TOO_MANY_ATTEMPTS", "FORBIDDEN");
  if (constantTimeEqual(expected, code)) return;
  await internalAdapter.createVerificationValue(
    { identifier, value: `${expected}:${attempts + 1}`, expiresAt: new Date(taken.expiresAt) },
    ctx,
  );
  throw PHONE_NUMBER_ERROR_CODES.fail("INVALID_OTP", "BAD_REQUEST");
}

/** `verifyOTP` when configured (stored codes for the number then dropped), else the stored code. */
export async function checkCode(
  ctx: EndpointContext,
  options: ResolvedPhoneNumberOptions,
  phoneNumber: string,
  code: string,
): Promise<void> {
  if (!options.verifyOTP) return consumeCode(ctx, options, phoneNumber, code);
  if (!(await options.verifyOTP({ phoneNumber, code }, ctx)))
    throw PHONE_NUMBER_ERROR_CODES.fail("INVALID_OTP", "BAD_REQUEST");
  await ctx.context.internalAdapter.deleteVerificationByIdentifier(phoneNumber);
}
