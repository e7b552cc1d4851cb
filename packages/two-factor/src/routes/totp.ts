import { endpoint, sessionMiddleware, symmetricDecrypt, toOutput } from "@latchkey/core";
import * as v from "valibot";
import { resolveVerifier } from "../challenge.js";
import { TWO_FACTOR_ERROR_CODES } from "../error-codes.js";
import { assertNotLocked, claimAttempt, type LockoutAttempt } from "../lockout.js";
import type { ResolvedTwoFactorOptions, UserWithTwoFactor } from "../options.js";
import { assertPassword, passwordBody } from "../password.js";
import { TWO_FACTOR_MODEL } from "../schema.js";
import { replaceSession } from "../session-swap.js";
import { matchTotp, totpCode, totpURI } from "../totp.js";
import { reserveTotpStep } from "../totp-replay.js";
import { findTwoFactorRow, isVerified } from "../two-factor-row.js";
import { totpNotConfigured } from "./enable.js";

const params = (options: ResolvedTwoFactorOptions) => ({ digits: options.totp.digits, period: options.totp.period });

/** Server-only `auth.api.generateTOTP({ body: { secret } })`: the current code of a plain secret (`{ code }`). */
export const generateTOTPRoute = (options: ResolvedTwoFactorOptions) =>
  endpoint("/two-factor/generate-totp", { method: "POST", body: v.object({ secret: v.string() }), serverOnly: true }, (ctx) => {
    if (options.totp.disabled) throw totpNotConfigured();
    return { code: totpCode(ctx.body.secret, params(options)) };
  });

/** `POST /two-factor/get-totp-uri` `{ password }`: the enrolled secret's `otpauth://` URI again. */
export const getTOTPURIRoute = (options: ResolvedTwoFactorOptions) =>
  endpoint(
    "/two-factor/get-totp-uri",
    {
      method: "POST",
      body: passwordBody(options.totp.allowPasswordless),
      use: [sessionMiddleware],
    },
    async (ctx) => {
      if (options.totp.disabled) throw totpNotConfigured();
      const auth = ctx.context;
      const user = auth.session.user;
      const row = await findTwoFactorRow(auth.adapter, user.id);
      if (!row) throw TWO_FACTOR_ERROR_CODES.fail("TOTP_NOT_ENABLED", "BAD_REQUEST");
      await assertPassword(ctx, user.id, ctx.body.password, options.totp.allowPasswordless);
      const secret = await symmetricDecrypt({ key: auth.secret, data: row.secret });
      // The plugin's `issuer` as `enable` uses it (the reference looks for it in `totpOptions`,
      // where its types do not allow it, and so always shows the app name here).
      return { totpURI: totpURI(secret, options.issuer || auth.appName, user.email, params(options)) };
    },
  );

const verifyBody = v.object({ code: v.string(), trustDevice: v.optional(v.boolean()) });

/**
 * `POST /two-factor/verify-totp` `{ code, trustDevice? }`, by a signed-in user (the first
 * valid code confirms the enrollment and turns two-factor on) or by a pending sign-in with
 * the `two_factor` cookie (the challenge's attempts and the per-user lockout apply; success
 * starts the session). A code's time step is accepted once per user. `{ token, user }`.
 */
export const verifyTOTPRoute = (options: ResolvedTwoFactorOptions) =>
  endpoint("/two-factor/verify-totp", { method: "POST", body: verifyBody }, async (ctx) => {
    if (options.totp.disabled) throw totpNotConfigured();
    const auth = ctx.context;
    const verifier = await resolveVerifier(ctx, options);
    const { user } = verifier;
    const signIn = verifier.session === null;
    const row = await findTwoFactorRow(auth.adapter, user.id);
    if (!row || (signIn && !isVerified(row))) throw TWO_FACTOR_ERROR_CODES.fail("TOTP_NOT_ENABLED", "BAD_REQUEST");
    if (signIn) assertNotLocked(row, options.lockout);
    const attempt = signIn ? await verifier.beginAttempt() : null;
    let lockout: LockoutAttempt | null = null;
    let accepted: boolean;
    try {
      lockout = signIn ? await claimAttempt(auth.adapter, row, options.lockout) : null;
      const secret = await symmetricDecrypt({ key: auth.secret, data: row.secret });
      const step = matchTotp(secret, ctx.body.code, params(options));
      accepted = step !== null && (await reserveTotpStep(auth, user.id, step, options.totp.period));
    } catch (error) {
      await attempt?.restore();
      await lockout?.cancel();
      throw error;
    }
    if (!accepted) {
      await attempt?.recordFailure();
      await lockout?.failed();
      throw TWO_FACTOR_ERROR_CODES.fail("INVALID_CODE", "UNAUTHORIZED");
    }
    await lockout?.succeeded();
    if (row.verified !== true) {
      await auth.adapter.update({ model: TWO_FACTOR_MODEL, where: [{ field: "id", value: row.id }], update: { verified: true } });
      if (verifier.session && !user.twoFactorEnabled) {
        const updated = ((await auth.internalAdapter.updateUser(user.id, { twoFactorEnabled: true }, ctx)) ??
          { ...user, twoFactorEnabled: true }) as UserWithTwoFactor;
        // The new session's token, not the deleted one's (the reference answers the old token).
        const replaced = await replaceSession(ctx, verifier.session, updated);
        return { token: replaced.session.token, user: toOutput(auth.schema, "user", replaced.user) };
      }
    }
    return verifier.complete();
  });
