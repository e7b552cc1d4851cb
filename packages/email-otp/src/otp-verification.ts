import type { AuthContext, EndpointContext } from "@latchkey/core";
import { EMAIL_OTP_ERROR_CODES } from "./error-codes.js";
import type { OTPType, ResolvedEmailOTPOptions } from "./options.js";
import { matchesStoredOTP, newOTP, otpIdentifier, otpValue, readOTPValue, recoverOTP, storeOTP } from "./otp-store.js";

const expiresAt = (options: ResolvedEmailOTPOptions): Date => new Date(Date.now() + options.expiresIn * 1000);

/**
 * Stores a code for `<type>-otp-<email>` and returns it in plain text for the mail. With
 * `resendStrategy: "reuse"`, a live code that can be recovered (not hashed) and has attempts
 * left is sent again with a fresh expiry instead.
 */
export async function issueOTP(
  auth: AuthContext,
  ctx: EndpointContext | undefined,
  options: ResolvedEmailOTPOptions,
  email: string,
  type: OTPType,
  identifier = otpIdentifier(type, email),
): Promise<string> {
  const adapter = auth.internalAdapter;
  if (options.resendStrategy === "reuse") {
    const live = await adapter.findVerificationValue(identifier);
    const current = live && readOTPValue(live.value);
    const plain = current && current.attempts < options.allowedAttempts ? await recoverOTP(auth, options, current.stored) : null;
    if (plain) {
      await adapter.updateVerificationByIdentifier(identifier, { expiresAt: expiresAt(options) }, ctx);
      return plain;
    }
  }
  const otp = newOTP(ctx, options, email, type);
  await adapter.createVerificationValue(
    { identifier, value: otpValue(await storeOTP(auth, options, otp), 0), expiresAt: expiresAt(options) },
    ctx,
  );
  return otp;
}

/**
 * Takes the code's row for one evaluation: exclusively, so of parallel requests one compares
 * and the others find nothing (400 `INVALID_OTP`). Then: expired → 400 `OTP_EXPIRED`; attempts
 * used up → 403 `TOO_MANY_ATTEMPTS` (the row stays gone); wrong code → the row is put back with
 * one more attempt, 400 `INVALID_OTP`. Every wrong guess thus costs an attempt and no more than
 * `allowedAttempts` guesses are ever compared, however many arrive at once.
 * Resolves when the code matched; with `keep` the row is then put back unchanged (a check).
 */
export async function redeemOTP(
  ctx: EndpointContext,
  options: ResolvedEmailOTPOptions,
  identifier: string,
  otp: string,
  { keep = false }: { keep?: boolean } = {},
): Promise<void> {
  const adapter = ctx.context.internalAdapter;
  const row = await adapter.consumeVerificationValue(identifier, { includeExpired: true });
  if (!row) throw EMAIL_OTP_ERROR_CODES.fail("INVALID_OTP", "BAD_REQUEST");
  if (row.expiresAt.getTime() < Date.now()) throw EMAIL_OTP_ERROR_CODES.fail("OTP_EXPIRED", "BAD_REQUEST");
  const { stored, attempts } = readOTPValue(row.value);
  if (attempts >= options.allowedAttempts) throw EMAIL_OTP_ERROR_CODES.fail("TOO_MANY_ATTEMPTS", "FORBIDDEN");
  const matched = await matchesStoredOTP(ctx, options, stored, otp);
  if (matched && !keep) return;
  await adapter.createVerificationValue(
    { identifier, value: matched ? row.value : otpValue(stored, attempts + 1), expiresAt: row.expiresAt },
    ctx,
  );
  if (!matched) throw EMAIL_OTP_ERROR_CODES.fail("INVALID_OTP", "BAD_REQUEST");
}
