import { endpoint, fail, getClientIP, parseInput, setSessionCookie, toOutput, type EndpointContext, type User } from "@latchkey/core";
import * as v from "valibot";
import { EMAIL_OTP_ERROR_CODES } from "../error-codes.js";
import type { ResolvedEmailOTPOptions } from "../options.js";
import { redeemOTP } from "../otp-verification.js";
import { otpIdentifier } from "../otp-store.js";

// The known fields plus any others (additional user fields), as the reference declares it.
const body = v.intersect([
  v.looseObject({ email: v.string(), otp: v.string(), name: v.optional(v.string()), image: v.optional(v.string()) }),
  v.record(v.string(), v.unknown()),
]);

/** The code's user: found, or created with the email verified (the code proved the mailbox). */
async function signInUser(ctx: EndpointContext, options: ResolvedEmailOTPOptions, email: string): Promise<User> {
  const auth = ctx.context;
  const found = await auth.internalAdapter.findUserByEmail(email);
  if (found) {
    if (found.user.emailVerified) return found.user;
    // spec: States, "user email unverified": access that predates the proof (password, OAuth
    // links, sessions) is revoked before the email is marked verified.
    const promoted = await auth.internalAdapter.revokeUnprovenAccountAccess(found.user.id, ctx);
    if (!promoted) throw EMAIL_OTP_ERROR_CODES.fail("INVALID_OTP", "BAD_REQUEST");
    return promoted;
  }
  // The reference answers a valid code for an unknown address this way when sign-up is off.
  if (options.disableSignUp) throw EMAIL_OTP_ERROR_CODES.fail("INVALID_OTP", "BAD_REQUEST");
  const { email: _email, otp: _otp, name, image, ...rest } = ctx.body as Record<string, unknown>;
  const additional = parseInput(auth, "user", rest, "create");
  const created = await auth.internalAdapter.createUser(
    {
      ...additional,
      email,
      emailVerified: true,
      name: typeof name === "string" ? name : "",
      ...(typeof image === "string" ? { image } : {}),
    },
    ctx,
    { method: "email-otp" },
  );
  if (!created) throw fail("UNPROCESSABLE_ENTITY", "FAILED_TO_CREATE_USER");
  return created;
}

/**
 * `POST /sign-in/email-otp` `{ email, otp, name?, image?, …additional fields }`: redeems a
 * `sign-in` code and opens a session (`{ token, user }` and the cookie), creating the user
 * unless `disableSignUp`. `@latchkey/last-login-method` records `email-otp` for it.
 */
export const signInEmailOTP = (options: ResolvedEmailOTPOptions) =>
  endpoint("/sign-in/email-otp", { method: "POST", body }, async (ctx) => {
    const auth = ctx.context;
    const email = ctx.body.email.toLowerCase();
    await redeemOTP(ctx, options, otpIdentifier("sign-in", email), ctx.body.otp);
    const user = await signInUser(ctx, options, email);
    const client = { ipAddress: getClientIP(ctx.headers, auth.options), userAgent: ctx.headers.get("user-agent") };
    const session = await auth.internalAdapter.createSession(user.id, false, client, ctx);
    if (!session) throw fail("UNAUTHORIZED", "FAILED_TO_CREATE_SESSION");
    await setSessionCookie(ctx, { session, user });
    return { token: session.token, user: toOutput(auth.schema, "user", user) };
  });
