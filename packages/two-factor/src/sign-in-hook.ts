import { deleteSessionCookie, generateRandomString, type EndpointContext, type HookEntry } from "@latchkey/core";
import { TWO_FACTOR_COOKIE } from "./challenge.js";
import type { ResolvedTwoFactorOptions, UserWithTwoFactor } from "./options.js";
import { redeemTrustedDevice } from "./trust-device.js";
import { findTwoFactorRow, isVerified } from "./two-factor-row.js";

/** The password sign-ins the reference intercepts (the last two exist only with their plugins). */
const PASSWORD_SIGN_INS = new Set(["/sign-in/email", "/sign-in/username", "/sign-in/phone-number"]);

/**
 * After a password sign-in of a user with two-factor on: a trusted device passes (its trust
 * rotated); otherwise the session just made is deleted and its cookies expired, a challenge
 * (`2fa-<20 random>` rows holding the user id and the attempt count, living
 * `twoFactorCookieMaxAge` seconds) goes into the signed `two_factor` cookie, and the answer
 * becomes `{ twoFactorRedirect: true, twoFactorMethods }`: no session until the second factor.
 */
export function signInHook(options: ResolvedTwoFactorOptions): HookEntry {
  return {
    matcher: "*",
    when: (ctx) => PASSWORD_SIGN_INS.has(ctx.path),
    handler: async (ctx: EndpointContext) => {
      const created = ctx.context.newSession;
      if (!created || !(created.user as UserWithTwoFactor).twoFactorEnabled) return;
      const auth = ctx.context;
      const userId = created.user.id;
      if (await redeemTrustedDevice(ctx, userId, options.trustDeviceMaxAge)) return;
      deleteSessionCookie(ctx, true);
      await auth.internalAdapter.deleteSession(created.session.token, ctx);
      // Later hooks must not see a session that no longer exists.
      auth.newSession = null;
      const maxAge = options.twoFactorCookieMaxAge;
      const identifier = `2fa-${generateRandomString(20)}`;
      const expiresAt = new Date(Date.now() + maxAge * 1000);
      await auth.internalAdapter.createVerificationValue({ value: userId, identifier, expiresAt }, ctx);
      await auth.internalAdapter.createVerificationValue({ value: "0", identifier: `2fa-attempts-${identifier}`, expiresAt }, ctx);
      const cookie = auth.authCookies.create(TWO_FACTOR_COOKIE, { maxAge });
      await ctx.setSignedCookie(cookie.name, identifier, cookie.attributes);
      return { twoFactorRedirect: true, twoFactorMethods: await availableMethods(ctx, options, userId) };
    },
  };
}

/** `"totp"` when the user has a verified enrollment and TOTP is on; `"otp"` whenever `sendOTP` is configured. */
async function availableMethods(ctx: EndpointContext, options: ResolvedTwoFactorOptions, userId: string): Promise<string[]> {
  const methods: string[] = [];
  if (!options.totp.disabled) {
    const row = await findTwoFactorRow(ctx.context.adapter, userId);
    if (row && isVerified(row)) methods.push("totp");
  }
  if (options.otp.sendOTP) methods.push("otp");
  return methods;
}
