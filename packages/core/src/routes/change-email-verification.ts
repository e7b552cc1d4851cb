import type { EndpointContext } from "../api/context.js";
import type { SessionWithUser } from "../context.js";
import { toOutput } from "../db/output.js";
import type { User } from "../db/models.js";
import type { APIError } from "../errors/api-error.js";
import { fail, type BaseErrorCode } from "../errors/index.js";
import { getClientIP } from "../ip.js";
import { setSessionCookie } from "../session/session-cookie.js";
import { getSessionFromRequest } from "../session/session-middleware.js";
import {
  createEmailVerificationToken,
  verificationLink,
  type EmailVerificationClaims,
} from "../mail/email-verification-token.js";
import { deliver } from "../mail/mail-delivery.js";
import { appendQueryParams } from "../security/redirect-url.js";

interface VerifyQuery {
  callbackURL?: string;
}

/**
 * The error answer of `/verify-email`: a redirect to `callbackURL?error=<code>` when one was
 * given, else 401 (or `status`) with the code. A callbackURL that cannot carry a query
 * (`foo`, `//host`) is refused as the origin check refuses it; the reference throws there (500).
 */
export function refuseVerification(
  ctx: EndpointContext,
  code: BaseErrorCode,
  status: "UNAUTHORIZED" | "UNPROCESSABLE_ENTITY" = "UNAUTHORIZED",
): APIError {
  const { callbackURL } = ctx.query as VerifyQuery;
  if (!callbackURL) return fail(status, code);
  const target = appendQueryParams(callbackURL, { error: code });
  return target === null ? fail("FORBIDDEN", "INVALID_CALLBACK_URL") : ctx.redirect(target);
}

/** The current session, or a new one for `user`: following the final link signs the user in. */
async function sessionFor(
  ctx: EndpointContext,
  user: User,
  current: SessionWithUser | null,
): Promise<SessionWithUser> {
  if (current) return current;
  const auth = ctx.context;
  const client = {
    ipAddress: getClientIP(ctx.headers, auth.options),
    userAgent: ctx.headers.get("user-agent"),
  };
  const session = await auth.internalAdapter.createSession(user.id, false, client, ctx);
  if (!session) throw fail("INTERNAL_SERVER_ERROR", "FAILED_TO_CREATE_SESSION");
  return { session, user };
}

/** Mails a verification link for `to` with the verify-email route's callbackURL. */
async function mailLink(ctx: EndpointContext, user: User, token: string): Promise<void> {
  const send = ctx.context.options.emailVerification?.sendVerificationEmail;
  if (!send) return;
  const url = verificationLink(ctx.context.baseURL, token, (ctx.query as VerifyQuery).callbackURL);
  await deliver(ctx, "verification", () => send({ user, url, token }, ctx.request));
}

/**
 * The email-change branches of `/verify-email` (a token with `updateTo`):
 * - `change-email-confirmation` (link sent to the current address): mails the final link
 *   to the new address;
 * - `change-email-verification` (link sent to the new address): applies the change, marks
 *   it verified and signs the user in;
 * - no request type (tokens of older releases): applies the change unverified and mails a
 *   plain verification link to the new address.
 * A session of another user: `INVALID_USER`.
 */
export async function applyEmailChange(
  ctx: EndpointContext,
  user: User,
  claims: EmailVerificationClaims,
  updateTo: string,
): Promise<unknown> {
  const auth = ctx.context;
  const { callbackURL } = ctx.query as VerifyQuery;
  const current = await getSessionFromRequest(ctx);
  if (current && current.user.email !== claims.email) throw refuseVerification(ctx, "INVALID_USER");
  const expiresIn = auth.options.emailVerification?.expiresIn;

  if (claims.requestType === "change-email-confirmation") {
    const token = await createEmailVerificationToken(
      auth.secret,
      claims.email,
      updateTo,
      expiresIn,
      "change-email-verification",
    );
    await mailLink(ctx, { ...user, email: updateTo }, token);
    if (callbackURL) throw ctx.redirect(callbackURL);
    return { status: true };
  }

  // The address may have been taken since the link was mailed (or the link is replayed
  // after the old address was registered again): refuse rather than hit the unique index
  // (the reference answers 500 there) or, on a store without one, duplicate the address.
  const holder = await auth.internalAdapter.findUserByEmail(updateTo);
  if (holder && holder.user.id !== user.id) {
    throw refuseVerification(ctx, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", "UNPROCESSABLE_ENTITY");
  }
  const active = await sessionFor(ctx, user, current);
  const verified = claims.requestType === "change-email-verification";
  const changes = { email: updateTo, emailVerified: verified };
  const updated = (await auth.internalAdapter.updateUserByEmail(claims.email, changes, ctx)) ?? {
    ...user,
    ...changes,
  };
  if (verified) {
    await auth.options.emailVerification?.afterEmailVerification?.(updated, ctx.request);
  } else {
    // Older tokens: the reference signs this one with the default lifetime, not `expiresIn`.
    await mailLink(ctx, updated, await createEmailVerificationToken(auth.secret, updateTo));
  }
  await setSessionCookie(ctx, { session: active.session, user: { ...active.user, ...changes } });
  if (callbackURL) throw ctx.redirect(callbackURL);
  return { status: true, user: toOutput(auth.schema, "user", updated) };
}
