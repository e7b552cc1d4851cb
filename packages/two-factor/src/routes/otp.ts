import { endpoint, fail, generateRandomString, toOutput } from "@latchkey/core";
import * as v from "valibot";
import { resolveVerifier } from "../challenge.js";
import { TWO_FACTOR_ERROR_CODES } from "../error-codes.js";
import { assertNotLocked, claimAttempt, type LockoutAttempt } from "../lockout.js";
import type { ResolvedTwoFactorOptions, UserWithTwoFactor } from "../options.js";
import { otpMatches, storedOTP } from "../otp-store.js";
import { replaceSession } from "../session-swap.js";
import { findTwoFactorRow } from "../two-factor-row.js";
import { otpNotConfigured } from "./enable.js";

const otpIdentifier = (key: string): string => `2fa-otp-${key}`;

/** `<stored code>:<wrong attempts>`, the reference's row value; split at the last colon, so a stored form containing one survives. */
function parseOtpValue(value: string): { stored: string; attempts: number } {
  const colon = value.lastIndexOf(":");
  if (colon < 0) return { stored: value, attempts: 0 };
  return { stored: value.slice(0, colon), attempts: Number.parseInt(value.slice(colon + 1), 10) || 0 };
}

/**
 * `POST /two-factor/send-otp` (signed in, or with the `two_factor` cookie): a new code of
 * `digits` digits replaces any earlier one for this sign-in or session, lives `period`
 * minutes, and goes to `otpOptions.sendOTP({ user, otp }, ctx)`. `{ status: true }`; a failing
 * sender is logged, not answered (reference).
 */
export const sendOTPRoute = (options: ResolvedTwoFactorOptions) =>
  endpoint(
    "/two-factor/send-otp",
    { method: "POST", body: v.optional(v.object({ trustDevice: v.optional(v.boolean()) })) },
    async (ctx) => {
      const send = options.otp.sendOTP;
      if (!send) throw otpNotConfigured();
      const auth = ctx.context;
      const verifier = await resolveVerifier(ctx, options);
      const code = generateRandomString(options.otp.digits, "0-9");
      const stored = await storedOTP(code, options.otp.store, auth.secret);
      const identifier = otpIdentifier(verifier.key);
      // An earlier code stays stored but is dead: a check takes the newest and drops the rest.
      await auth.internalAdapter.createVerificationValue(
        { value: `${stored}:0`, identifier, expiresAt: new Date(Date.now() + options.otp.periodMs) },
        ctx,
      );
      try {
        await send({ user: verifier.user, otp: code }, ctx);
      } catch (error) {
        auth.logger.error("Failed to send two-factor OTP", error);
      }
      return { status: true };
    },
  );

/**
 * `POST /two-factor/verify-otp` `{ code, trustDevice? }`. The code's row is taken atomically,
 * so concurrent checks of one code never overlap: one wins, the others find no code (400
 * `OTP_HAS_EXPIRED`). A wrong code puts it back with one more attempt; past
 * `allowedAttempts` it is gone (400 `TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE`). At sign-in the
 * lockout applies and success starts the session; a signed-in user without two-factor has it
 * turned on. `{ token, user }`.
 */
export const verifyOTPRoute = (options: ResolvedTwoFactorOptions) =>
  endpoint(
    "/two-factor/verify-otp",
    { method: "POST", body: v.object({ code: v.string(), trustDevice: v.optional(v.boolean()) }) },
    async (ctx) => {
      const auth = ctx.context;
      const verifier = await resolveVerifier(ctx, options);
      const row = verifier.session === null ? await findTwoFactorRow(auth.adapter, verifier.user.id) : null;
      if (row) assertNotLocked(row, options.lockout);
      const identifier = otpIdentifier(verifier.key);
      const consumed = await auth.internalAdapter.consumeVerificationValue(identifier);
      if (!consumed) throw TWO_FACTOR_ERROR_CODES.fail("OTP_HAS_EXPIRED", "BAD_REQUEST");
      const { stored, attempts } = parseOtpValue(consumed.value);
      if (attempts >= options.otp.allowedAttempts) {
        throw TWO_FACTOR_ERROR_CODES.fail("TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE", "BAD_REQUEST");
      }
      const putBack = (count: number) =>
        auth.internalAdapter.createVerificationValue({ value: `${stored}:${count}`, identifier, expiresAt: consumed.expiresAt }, ctx);
      let lockout: LockoutAttempt | null = null;
      let matches: boolean;
      try {
        lockout = row ? await claimAttempt(auth.adapter, row, options.lockout) : null;
        matches = await otpMatches(stored, ctx.body.code, options.otp.store, auth.secret);
      } catch (error) {
        await putBack(attempts);
        await lockout?.cancel();
        throw error;
      }
      if (!matches) {
        await putBack(attempts + 1);
        await lockout?.failed();
        throw TWO_FACTOR_ERROR_CODES.fail("INVALID_CODE", "UNAUTHORIZED");
      }
      await lockout?.succeeded();
      const { user, session } = verifier;
      if (!user.twoFactorEnabled) {
        if (!session) throw fail("BAD_REQUEST", "FAILED_TO_CREATE_SESSION");
        const updated = ((await auth.internalAdapter.updateUser(user.id, { twoFactorEnabled: true }, ctx)) ??
          { ...user, twoFactorEnabled: true }) as UserWithTwoFactor;
        const replaced = await replaceSession(ctx, session, updated);
        return { token: replaced.session.token, user: toOutput(auth.schema, "user", replaced.user) };
      }
      return verifier.complete();
    },
  );
