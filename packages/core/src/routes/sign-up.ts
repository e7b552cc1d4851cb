import * as v from "valibot";
import { endpoint } from "../api/endpoint.js";
import { email } from "../api/validation.js";
import { toOutput } from "../db/output.js";
import { APIError } from "../errors/api-error.js";
import { fail } from "../errors/index.js";
import { getClientIP } from "../ip.js";
import { formCsrfMiddleware } from "../security/origin-check.js";
import { setSessionCookie } from "../session/session-cookie.js";
import { assertPasswordLength } from "./password-rules.js";
import { parseInput } from "../db/field-input.js";
import { answerDuplicateSignUp, hidesDuplicateEmails } from "./sign-up-duplicate.js";
import { mailVerificationOnSignUp } from "../mail/verification-mail.js";

// The known fields, intersected with "any other keys" (additional user fields), as the
// reference declares it: a non-object body reports both parts.
const body = v.intersect([
  v.looseObject({
    name: v.string(),
    email: v.pipe(v.string(), email()),
    password: v.pipe(v.string(), v.nonEmpty()),
    image: v.optional(v.string()),
    callbackURL: v.optional(v.string()),
    rememberMe: v.optional(v.boolean()),
  }),
  v.record(v.string(), v.unknown()),
]);

/** `POST /sign-up/email`: creates the user and its credential account, then signs in. */
export const signUpEmail = endpoint(
  "/sign-up/email",
  {
    method: "POST",
    body,
    use: [formCsrfMiddleware],
    allowedMediaTypes: ["application/x-www-form-urlencoded", "application/json"],
  },
  async (ctx) => {
    const { context: auth } = ctx;
    const options = auth.options.emailAndPassword;
    if (!options?.enabled || options.disableSignUp) {
      throw new APIError("BAD_REQUEST", {
        message: "Email and password sign up is not enabled",
        code: "EMAIL_PASSWORD_SIGN_UP_DISABLED",
      });
    }
    const { name, email: rawEmail, password, image, rememberMe, callbackURL: _callbackURL, ...rest } = ctx.body;
    assertPasswordLength(ctx, password);
    const additional = parseInput(auth, "user", rest, "create");
    const normalizedEmail = rawEmail.toLowerCase();
    const input = { name, email: normalizedEmail, image, password, additional };
    const existing = await auth.internalAdapter.findUserByEmail(normalizedEmail);
    if (existing) {
      auth.logger.info("Sign-up attempt for an existing email");
      if (hidesDuplicateEmails(auth)) return answerDuplicateSignUp(ctx, existing.user, input);
      throw fail("UNPROCESSABLE_ENTITY", "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
    }
    // Hash before creating anything, so a failing hasher leaves no half-made user behind.
    const hash = await auth.password.hash(password);
    let user;
    try {
      user = await auth.internalAdapter.createUser(
        { ...additional, email: normalizedEmail, name, image, emailVerified: false },
        ctx,
        { method: "email-password" },
      );
    } catch (error) {
      // A 403 from a create gate looks like a duplicate in the hiding modes (reference).
      if (error instanceof APIError && error.status === 403 && hidesDuplicateEmails(auth)) {
        return answerDuplicateSignUp(ctx, null, input);
      }
      if (error instanceof APIError) throw error;
      auth.logger.error("Failed to create user", error);
      throw fail("UNPROCESSABLE_ENTITY", "FAILED_TO_CREATE_USER");
    }
    if (!user) throw fail("BAD_REQUEST", "FAILED_TO_CREATE_USER");
    try {
      await auth.internalAdapter.linkAccount(
        { userId: user.id, providerId: "credential", accountId: user.id, password: hash },
        ctx,
      );
    } catch (error) {
      // Without its credential account the user could never sign in: undo the user row.
      await auth.adapter.delete({ model: "user", where: [{ field: "id", value: user.id }] });
      throw error;
    }
    await mailVerificationOnSignUp(ctx, user, ctx.body.callbackURL);
    if (options.autoSignIn === false || options.requireEmailVerification) {
      return { token: null, user: toOutput(auth.schema, "user", user) };
    }
    const session = await auth.internalAdapter.createSession(
      user.id,
      rememberMe === false,
      { ipAddress: getClientIP(ctx.headers, auth.options), userAgent: ctx.headers.get("user-agent") },
      ctx,
    );
    if (!session) throw fail("BAD_REQUEST", "FAILED_TO_CREATE_SESSION");
    await setSessionCookie(ctx, { session, user }, rememberMe === false);
    return { token: session.token, user: toOutput(auth.schema, "user", user) };
  },
);
