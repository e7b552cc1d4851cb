import {
  endpoint,
  getClientIP,
  setSessionCookie,
  toOutput,
  type LatchkeyPlugin,
} from "@latchkey/core";

/**
 * A stand-in for the email OTP plugin (no package yet): `POST /sign-in/email-otp` signs the
 * user with that email in, creating it first when unknown, exactly the writes a real OTP
 * sign-in makes (user create, session create, session cookie). The code is not checked:
 * what is under test is how the last-login-method plugin sees this path.
 */
export function emailOtpStandIn(): LatchkeyPlugin {
  const signIn = endpoint("/sign-in/email-otp", { method: "POST" }, async (ctx) => {
    const auth = ctx.context;
    const email = String((ctx.body as unknown as { email?: unknown }).email).toLowerCase();
    const found = await auth.internalAdapter.findUserByEmail(email);
    const user =
      found?.user ??
      (await auth.internalAdapter.createUser({ email, name: "", emailVerified: true }, ctx, {
        method: "email-otp",
      }));
    if (!user) throw new Error("user not created");
    const session = await auth.internalAdapter.createSession(
      user.id,
      false,
      { ipAddress: getClientIP(ctx.headers, auth.options), userAgent: ctx.headers.get("user-agent") },
      ctx,
    );
    if (!session) throw new Error("session not created");
    await setSessionCookie(ctx, { session, user });
    return { token: session.token, user: toOutput(auth.schema, "user", user) };
  });
  return { id: "email-otp-stand-in", endpoints: { signInEmailOTP: signIn } };
}
