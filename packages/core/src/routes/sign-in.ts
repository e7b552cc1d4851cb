import * as v from "valibot";
import { endpoint } from "../api/endpoint.js";
import { isEmail } from "../api/validation.js";
import { toOutput } from "../db/output.js";
import { APIError } from "../errors/api-error.js";
import { fail } from "../errors/index.js";
import { getClientIP } from "../ip.js";
import { formCsrfMiddleware } from "../security/origin-check.js";
import { setSessionCookie } from "../session/session-cookie.js";
import { assertPasswordLength } from "./password-rules.js";
import { mailVerificationOnSignIn } from "../mail/verification-mail.js";

const body = v.object({
  email: v.string(),
  password: v.string(),
  callbackURL: v.optional(v.string()),
  rememberMe: v.optional(v.boolean()),
});

/** `POST /sign-in/email`: verifies the password of the credential account and opens a session. */
export const signInEmail = endpoint(
  "/sign-in/email",
  {
    method: "POST",
    body,
    use: [formCsrfMiddleware],
    allowedMediaTypes: ["application/x-www-form-urlencoded", "application/json"],
  },
  async (ctx) => {
    const { context: auth } = ctx;
    if (!auth.options.emailAndPassword?.enabled) {
      throw new APIError("BAD_REQUEST", { message: "Email and password is not enabled", code: "EMAIL_PASSWORD_DISABLED" });
    }
    const { email, password, callbackURL, rememberMe } = ctx.body;
    if (!isEmail(email)) throw fail("BAD_REQUEST", "INVALID_EMAIL");
    assertPasswordLength(ctx, password, false);
    const found = await auth.internalAdapter.findUserByEmail(email, { includeAccounts: true });
    const credential = found?.accounts.find((a) => a.providerId === "credential" && a.accountId === found.user.id);
    if (!found || !credential?.password) {
      // Hash anyway so an unknown email costs the same time as a wrong password.
      await auth.password.hash(password);
      throw fail("UNAUTHORIZED", "INVALID_EMAIL_OR_PASSWORD");
    }
    if (!(await auth.password.verify({ hash: credential.password, password }))) {
      throw fail("UNAUTHORIZED", "INVALID_EMAIL_OR_PASSWORD");
    }
    if (auth.options.emailAndPassword.requireEmailVerification && !found.user.emailVerified) {
      await mailVerificationOnSignIn(ctx, found.user, callbackURL);
      throw fail("FORBIDDEN", "EMAIL_NOT_VERIFIED");
    }
    const session = await auth.internalAdapter.createSession(
      found.user.id,
      rememberMe === false,
      { ipAddress: getClientIP(ctx.headers, auth.options), userAgent: ctx.headers.get("user-agent") },
      ctx,
    );
    if (!session) throw fail("UNAUTHORIZED", "FAILED_TO_CREATE_SESSION");
    await setSessionCookie(ctx, { session, user: found.user }, rememberMe === false);
    // The reference answers 200 with a Location header (not a 302) when a callbackURL is given.
    if (callbackURL) ctx.setHeader("location", callbackURL);
    return {
      redirect: !!callbackURL,
      token: session.token,
      url: callbackURL,
      user: toOutput(auth.schema, "user", found.user),
    };
  },
);
