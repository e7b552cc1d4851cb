import { APIError, endpoint, generateRandomString, sessionMiddleware, symmetricEncrypt } from "@latchkey/core";
import * as v from "valibot";
import { encodeBackupCodes, newBackupCodes } from "../backup-codes.js";
import { TWO_FACTOR_ERROR_CODES } from "../error-codes.js";
import type { ResolvedTwoFactorOptions, UserWithTwoFactor } from "../options.js";
import { assertPassword } from "../password.js";
import { TWO_FACTOR_MODEL } from "../schema.js";
import { replaceSession } from "../session-swap.js";
import { totpURI } from "../totp.js";
import { findTwoFactorRow, isVerified, restartEnrollment } from "../two-factor-row.js";

/** The reference's `totp isn't configured` answer of a route whose method is turned off. */
export const totpNotConfigured = (): APIError =>
  APIError.from("BAD_REQUEST", "TOTP_NOT_CONFIGURED", "totp isn't configured");
/** The reference's `otp isn't configured` answer when no `sendOTP` is given. */
export const otpNotConfigured = (): APIError => APIError.from("BAD_REQUEST", "OTP_NOT_CONFIGURED", "otp isn't configured");

/** Body of `enable`: the password is optional only with `allowPasswordless` (reference schema). */
const enableBody = (passwordless: boolean) =>
  v.object({
    password: passwordless ? v.optional(v.string()) : v.string(),
    method: v.optional(v.picklist(["otp", "totp"]), "totp"),
    issuer: v.optional(v.string()),
  });

/**
 * `POST /two-factor/enable` `{ password, method?, issuer? }`. `method: "otp"` turns two-factor
 * on at once (codes by `sendOTP`) and answers `{ method: "otp" }`. `"totp"` writes a new
 * encrypted secret and backup-code set (restarting an unverified enrollment in place) and
 * answers `{ method, totpURI, backupCodes }`; two-factor turns on at the first verified code,
 * or now with `skipVerificationOnEnable`. A verified enrollment → 400 `TOTP_ALREADY_ENABLED`.
 * Whenever the user's flag changes the session is replaced.
 */
export const enableRoute = (options: ResolvedTwoFactorOptions) =>
  endpoint(
    "/two-factor/enable",
    { method: "POST", body: enableBody(options.allowPasswordless), use: [sessionMiddleware] },
    async (ctx) => {
      const auth = ctx.context;
      const { session } = auth.session;
      const user = auth.session.user as UserWithTwoFactor;
      const { method, issuer, password } = ctx.body;
      await assertPassword(ctx, user.id, password, options.allowPasswordless);
      if (method === "otp" && !options.otp.sendOTP) throw TWO_FACTOR_ERROR_CODES.fail("OTP_NOT_CONFIGURED", "BAD_REQUEST");
      if (method === "totp" && options.totp.disabled) throw TWO_FACTOR_ERROR_CODES.fail("TOTP_NOT_CONFIGURED", "BAD_REQUEST");
      if (method === "otp") {
        const updated = await auth.internalAdapter.updateUser(user.id, { twoFactorEnabled: true }, ctx);
        await replaceSession(ctx, session, updated ?? { ...user, twoFactorEnabled: true });
        return { method: "otp" as const };
      }
      const existing = await findTwoFactorRow(auth.adapter, user.id);
      if (existing && isVerified(existing)) throw TWO_FACTOR_ERROR_CODES.fail("TOTP_ALREADY_ENABLED", "BAD_REQUEST");
      const backupCodes = newBackupCodes(options.backupCodes);
      // 32 characters of the URL-safe alphabet; the TOTP key is their UTF-8 bytes (reference).
      const secret = generateRandomString(32);
      const data = {
        secret: await symmetricEncrypt({ key: auth.secret, data: secret }),
        backupCodes: await encodeBackupCodes(backupCodes, auth.secret, options.backupCodes),
        verified: options.skipVerificationOnEnable,
      };
      if (existing) {
        // Spec: an unfinished enrollment is restarted in place; one verified meanwhile is kept.
        if (!(await restartEnrollment(auth.adapter, existing, data))) {
          throw TWO_FACTOR_ERROR_CODES.fail("TOTP_ALREADY_ENABLED", "BAD_REQUEST");
        }
      } else {
        await auth.internalAdapter.create(TWO_FACTOR_MODEL, { ...data, userId: user.id }, ctx);
      }
      if (options.skipVerificationOnEnable) {
        const updated = await auth.internalAdapter.updateUser(user.id, { twoFactorEnabled: true }, ctx);
        await replaceSession(ctx, session, updated ?? { ...user, twoFactorEnabled: true });
      }
      const params = { digits: options.totp.digits, period: options.totp.period };
      return {
        method: "totp" as const,
        totpURI: totpURI(secret, issuer || options.issuer || auth.appName, user.email, params),
        backupCodes,
      };
    },
  );
