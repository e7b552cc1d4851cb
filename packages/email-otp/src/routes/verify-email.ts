import { endpoint, fail, getClientIP, getSessionFromRequest, isEmail, setCookieCache, setSessionCookie, toOutput } from "@latchkey/core";
import * as v from "valibot";
import type { ResolvedEmailOTPOptions } from "../options.js";
import { redeemOTP } from "../otp-verification.js";
import { otpIdentifier } from "../otp-store.js";

const body = v.object({ email: v.string(), otp: v.string() });

/**
 * `POST /email-otp/verify-email` `{ email, otp }`: redeems an `email-verification` code and
 * marks the address verified, running core's `before`/`afterEmailVerification`. Answers
 * `{ status: true, token, user }`: with `autoSignInAfterVerification` a new session (and its
 * cookie), else `token: null` (a signed-in user's cookie cache is refreshed).
 */
export const verifyEmailOTP = (options: ResolvedEmailOTPOptions) =>
  endpoint("/email-otp/verify-email", { method: "POST", body }, async (ctx) => {
    const auth = ctx.context;
    const email = ctx.body.email.toLowerCase();
    if (!isEmail(email)) throw fail("BAD_REQUEST", "INVALID_EMAIL");
    await redeemOTP(ctx, options, otpIdentifier("email-verification", email), ctx.body.otp);
    const found = await auth.internalAdapter.findUserByEmail(email);
    if (!found) throw fail("BAD_REQUEST", "USER_NOT_FOUND");
    const hooks = auth.options.emailVerification;
    await hooks?.beforeEmailVerification?.(found.user, ctx.request);
    const user = (await auth.internalAdapter.updateUser(found.user.id, { email, emailVerified: true }, ctx)) ?? {
      ...found.user,
      emailVerified: true,
    };
    await hooks?.afterEmailVerification?.(user, ctx.request);
    if (hooks?.autoSignInAfterVerification) {
      const client = { ipAddress: getClientIP(ctx.headers, auth.options), userAgent: ctx.headers.get("user-agent") };
      const session = await auth.internalAdapter.createSession(user.id, false, client, ctx);
      if (!session) throw fail("INTERNAL_SERVER_ERROR", "FAILED_TO_CREATE_SESSION");
      await setSessionCookie(ctx, { session, user });
      return { status: true, token: session.token as string | null, user: toOutput(auth.schema, "user", user) };
    }
    const current = await getSessionFromRequest(ctx);
    if (current && current.user.id === user.id) {
      const dontRemember = await ctx.getSignedCookie(auth.authCookies.dontRememberToken.name);
      await setCookieCache(ctx, { session: current.session, user: { ...current.user, emailVerified: true } }, !!dontRemember);
    }
    return { status: true, token: null as string | null, user: toOutput(auth.schema, "user", user) };
  });
