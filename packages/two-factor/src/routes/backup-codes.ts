import { APIError, constantTimeEqual, endpoint, sessionMiddleware, toOutput } from "@latchkey/core";
import * as v from "valibot";
import { decodeBackupCodes, encodeBackupCodes, newBackupCodes } from "../backup-codes.js";
import { resolveVerifier, type ChallengeAttempt } from "../challenge.js";
import { TWO_FACTOR_ERROR_CODES } from "../error-codes.js";
import { assertNotLocked, claimAttempt, type LockoutAttempt } from "../lockout.js";
import type { ResolvedTwoFactorOptions, UserWithTwoFactor } from "../options.js";
import { assertPassword, passwordBody } from "../password.js";
import { TWO_FACTOR_MODEL } from "../schema.js";
import { findTwoFactorRow, swapBackupCodes } from "../two-factor-row.js";

/** The list without `code`, or null when `code` is not in it (every entry compared in constant time). */
function withoutCode(codes: string[], code: string): string[] | null {
  let found = false;
  const rest = codes.filter((candidate) => {
    const same = constantTimeEqual(candidate, code);
    found ||= same;
    return !same;
  });
  return found ? rest : null;
}

const verifyBody = v.object({ code: v.string(), disableSession: v.optional(v.boolean()), trustDevice: v.optional(v.boolean()) });

/**
 * `POST /two-factor/verify-backup-code` `{ code, disableSession?, trustDevice? }` (signed in,
 * or with the `two_factor` cookie). A valid code is removed from the stored list by a
 * compare-and-set on the stored text, so one code signs in once however many requests race
 * for it (the losers get 409, as in the reference). `{ token, user }`.
 */
export const verifyBackupCodeRoute = (options: ResolvedTwoFactorOptions) =>
  endpoint("/two-factor/verify-backup-code", { method: "POST", body: verifyBody }, async (ctx) => {
    const auth = ctx.context;
    const verifier = await resolveVerifier(ctx, options);
    const signIn = verifier.session === null;
    const row = await findTwoFactorRow(auth.adapter, verifier.user.id);
    if (!row) throw TWO_FACTOR_ERROR_CODES.fail("BACKUP_CODES_NOT_ENABLED", "BAD_REQUEST");
    if (signIn) assertNotLocked(row, options.lockout);
    const attempt: ChallengeAttempt | null = signIn ? await verifier.beginAttempt() : null;
    let lockout: LockoutAttempt | null = null;
    let remaining: string[] | null;
    let swapped: boolean;
    try {
      lockout = signIn ? await claimAttempt(auth.adapter, row, options.lockout) : null;
      const codes = await decodeBackupCodes(row.backupCodes, auth.secret, options.backupCodes);
      remaining = codes && withoutCode(codes, ctx.body.code);
      swapped =
        remaining !== null &&
        (await swapBackupCodes(auth.adapter, row, row.backupCodes, await encodeBackupCodes(remaining, auth.secret, options.backupCodes)));
    } catch (error) {
      await attempt?.restore();
      await lockout?.cancel();
      throw error;
    }
    if (remaining === null) {
      await attempt?.recordFailure();
      await lockout?.failed();
      throw TWO_FACTOR_ERROR_CODES.fail("INVALID_BACKUP_CODE", "UNAUTHORIZED");
    }
    if (!swapped) {
      // Another request changed the list first (redeemed this or another code): nothing was
      // judged, so the attempt is given back. Reference status and message.
      await attempt?.restore();
      await lockout?.cancel();
      throw new APIError("CONFLICT", { message: "Failed to verify backup code. Please try again." });
    }
    await lockout?.succeeded();
    if (!ctx.body.disableSession) return verifier.complete();
    return { token: verifier.session?.token, user: toOutput(auth.schema, "user", verifier.user) };
  });

/**
 * `POST /two-factor/generate-backup-codes` `{ password }`: a new set replaces the old one.
 * Needs two-factor on (400 `TWO_FACTOR_NOT_ENABLED`). `{ status: true, backupCodes }`.
 */
export const generateBackupCodesRoute = (options: ResolvedTwoFactorOptions) =>
  endpoint(
    "/two-factor/generate-backup-codes",
    {
      method: "POST",
      body: passwordBody(options.backupCodes.allowPasswordless),
      use: [sessionMiddleware],
    },
    async (ctx) => {
      const auth = ctx.context;
      const user = auth.session.user as UserWithTwoFactor;
      if (!user.twoFactorEnabled) throw TWO_FACTOR_ERROR_CODES.fail("TWO_FACTOR_NOT_ENABLED", "BAD_REQUEST");
      await assertPassword(ctx, user.id, ctx.body.password, options.backupCodes.allowPasswordless);
      const row = await findTwoFactorRow(auth.adapter, user.id);
      if (!row) throw TWO_FACTOR_ERROR_CODES.fail("TWO_FACTOR_NOT_ENABLED", "BAD_REQUEST");
      const backupCodes = newBackupCodes(options.backupCodes);
      const stored = await encodeBackupCodes(backupCodes, auth.secret, options.backupCodes);
      await auth.internalAdapter.update(TWO_FACTOR_MODEL, [{ field: "id", value: row.id }], { backupCodes: stored }, ctx);
      return { status: true, backupCodes };
    },
  );

/** The reference's `z.coerce.string()`: any scalar becomes its string form. */
const coercedString = v.pipe(v.union([v.string(), v.number(), v.boolean()]), v.transform(String));

/** Server-only `auth.api.viewBackupCodes({ body: { userId } })`: the user's remaining codes, decoded. */
export const viewBackupCodesRoute = (options: ResolvedTwoFactorOptions) =>
  endpoint(
    "/two-factor/view-backup-codes",
    { method: "POST", body: v.object({ userId: coercedString }), serverOnly: true },
    async (ctx) => {
      const auth = ctx.context;
      const row = await findTwoFactorRow(auth.adapter, ctx.body.userId);
      if (!row) throw TWO_FACTOR_ERROR_CODES.fail("BACKUP_CODES_NOT_ENABLED", "BAD_REQUEST");
      const backupCodes = await decodeBackupCodes(row.backupCodes, auth.secret, options.backupCodes);
      if (!backupCodes) throw TWO_FACTOR_ERROR_CODES.fail("INVALID_BACKUP_CODE", "BAD_REQUEST");
      return { status: true, backupCodes };
    },
  );
