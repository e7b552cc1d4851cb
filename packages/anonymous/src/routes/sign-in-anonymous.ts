import {
  endpoint,
  getClientIP,
  getSessionFromRequest,
  setSessionCookie,
  toOutput,
  type User,
} from "@latchkey/core";
import { anonymousEmail, anonymousName } from "../anonymous-email.js";
import { ANONYMOUS_ERROR_CODES } from "../error-codes.js";
import type { AnonymousOptions } from "../options.js";

/**
 * `POST /sign-in/anonymous` (no body): creates a user with a generated address and name,
 * `isAnonymous: true`, opens a session and sets its cookie; `{ token, user }`. A browser whose
 * session is already anonymous gets 400 `ANONYMOUS_USERS_CANNOT_SIGN_IN_AGAIN_ANONYMOUSLY`.
 */
export function signInAnonymous(options: AnonymousOptions) {
  return endpoint("/sign-in/anonymous", { method: "POST" }, async (ctx) => {
    const current = await getSessionFromRequest(ctx, { disableRefresh: true });
    if (isAnonymous(current?.user))
      throw ANONYMOUS_ERROR_CODES.fail("ANONYMOUS_USERS_CANNOT_SIGN_IN_AGAIN_ANONYMOUSLY", "BAD_REQUEST");
    const { internalAdapter, options: authOptions, schema } = ctx.context;
    const now = new Date();
    const user = await internalAdapter.createUser(
      {
        email: await anonymousEmail(options),
        name: await anonymousName(options, ctx),
        emailVerified: false,
        isAnonymous: true,
        createdAt: now,
        updatedAt: now,
      } as Partial<User> & { email: string; name: string },
      ctx,
      { method: "anonymous" },
    );
    if (!user) throw ANONYMOUS_ERROR_CODES.fail("FAILED_TO_CREATE_USER", "INTERNAL_SERVER_ERROR");
    const session = await internalAdapter.createSession(
      user.id,
      false,
      { ipAddress: getClientIP(ctx.headers, authOptions), userAgent: ctx.headers.get("user-agent") },
      ctx,
    );
    if (!session) throw ANONYMOUS_ERROR_CODES.fail("COULD_NOT_CREATE_SESSION", "BAD_REQUEST");
    await setSessionCookie(ctx, { session, user });
    return { token: session.token, user: toOutput(schema, "user", user) };
  });
}

/** The `isAnonymous` flag of a user row (stored as 1/0 or true/false depending on the database). */
export const isAnonymous = (user: object | null | undefined): boolean =>
  Boolean(user && (user as { isAnonymous?: unknown }).isAnonymous);
