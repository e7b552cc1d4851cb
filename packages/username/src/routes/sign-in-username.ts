import {
  endpoint,
  fail,
  getClientIP,
  mailVerificationOnSignIn,
  setSessionCookie,
  toOutput,
  type EndpointContext,
  type User,
} from "@latchkey/core";
import * as v from "valibot";
import { USERNAME_ERROR_CODES } from "../error-codes.js";
import { findByUsername } from "../lookup.js";
import type { ResolvedUsernameOptions } from "../options.js";
import { usernameProblem } from "../username-rules.js";

const body = v.object({
  username: v.string(),
  password: v.string(),
  rememberMe: v.optional(v.boolean()),
  callbackURL: v.optional(v.string()),
});

const refused = () => USERNAME_ERROR_CODES.fail("INVALID_USERNAME_OR_PASSWORD", "UNAUTHORIZED");

/**
 * The user whose credential password this is, or null. Every way of failing (no such user, no
 * credential account, no password on it, a wrong password) costs one scrypt run and ends in
 * the same answer, so neither the body nor the timing tells which usernames exist.
 */
async function checkCredentials(ctx: EndpointContext, username: string, password: string): Promise<User | null> {
  const user = await findByUsername(ctx, username);
  const account = user ? await ctx.context.internalAdapter.findCredentialAccount(user.id) : null;
  if (!user || !account?.password) {
    await ctx.context.password.hash(password);
    return null;
  }
  return (await ctx.context.password.verify({ hash: account.password, password })) ? user : null;
}

/**
 * `POST /sign-in/username` `{ username, password, rememberMe?, callbackURL? }`: opens a session
 * for the user with that (normalised) username and password, answering like `/sign-in/email`:
 * `{ redirect, token, url, user }` and the session cookie. A malformed username is 422 with
 * its rule's code; any credential failure 401 `INVALID_USERNAME_OR_PASSWORD`; an unverified
 * email with `requireEmailVerification` 403 `EMAIL_NOT_VERIFIED` (after mailing a link when
 * `sendOnSignIn`).
 */
export const signInUsername = (options: ResolvedUsernameOptions) =>
  endpoint(
    "/sign-in/username",
    // JSON only, as the reference (a form post is 415, so no cross-site form can sign anyone in).
    { method: "POST", body },
    async (ctx) => {
      const { username: sent, password, rememberMe, callbackURL } = ctx.body;
      if (!sent || !password) throw refused();
      const problem = await usernameProblem(options, sent);
      if (problem) throw USERNAME_ERROR_CODES.fail(problem, "UNPROCESSABLE_ENTITY");
      if (password.length > ctx.context.password.config.maxPasswordLength) throw fail("BAD_REQUEST", "PASSWORD_TOO_LONG");
      const user = await checkCredentials(ctx, options.normalize(sent), password);
      if (!user) throw refused();
      if (ctx.context.options.emailAndPassword?.requireEmailVerification && !user.emailVerified) {
        await mailVerificationOnSignIn(ctx, user, callbackURL);
        throw USERNAME_ERROR_CODES.fail("EMAIL_NOT_VERIFIED", "FORBIDDEN");
      }
      const auth = ctx.context;
      const session = await auth.internalAdapter.createSession(
        user.id,
        rememberMe === false,
        { ipAddress: getClientIP(ctx.headers, auth.options), userAgent: ctx.headers.get("user-agent") },
        ctx,
      );
      if (!session) throw fail("UNAUTHORIZED", "FAILED_TO_CREATE_SESSION");
      await setSessionCookie(ctx, { session, user }, rememberMe === false);
      // As /sign-in/email: 200 with a Location header (not a redirect status) when a callbackURL is given.
      if (callbackURL) ctx.setHeader("location", callbackURL);
      return { redirect: !!callbackURL, token: session.token, url: callbackURL, user: toOutput(auth.schema, "user", user) };
    },
  );
