import * as v from "valibot";
import type { EndpointContext } from "../api/context.js";
import { endpoint } from "../api/endpoint.js";
import { email } from "../api/validation.js";
import type { User } from "../db/models.js";
import { fail } from "../errors/index.js";
import { getClientIP } from "../ip.js";
import { assertTrustedCallbackURL } from "../security/origin-check.js";
import { setSessionCookie } from "../session/session-cookie.js";
import { getSessionFromRequest } from "../session/session-middleware.js";
import { applyEmailChange, refuseVerification } from "./change-email-verification.js";
import { createEmailVerificationToken, verifyEmailVerificationToken } from "../mail/email-verification-token.js";
import { withMinimumDuration } from "../mail/mail-delivery.js";
import { mailVerificationLink } from "../mail/verification-mail.js";

/**
 * The reference's floor for anonymous callers: "no such user" or "already verified" (a local
 * JWT sign) must not answer faster than "mail sent" (an external call).
 */
const ANONYMOUS_FLOOR_MS = 500;

/**
 * `POST /send-verification-email`: mails a verification link. Anonymous callers always get
 * `{status: true}` after the same minimum time; a signed-in caller must name their own,
 * unverified address (400 `EMAIL_MISMATCH` / `EMAIL_ALREADY_VERIFIED`).
 */
export const sendVerificationEmail = endpoint(
  "/send-verification-email",
  {
    method: "POST",
    body: v.object({ email: v.pipe(v.string(), email()), callbackURL: v.optional(v.string()) }),
  },
  async (ctx) => {
    const auth = ctx.context;
    const options = auth.options.emailVerification;
    if (!options?.sendVerificationEmail) {
      auth.logger.error("Verification email isn't enabled.");
      throw fail("BAD_REQUEST", "VERIFICATION_EMAIL_NOT_ENABLED");
    }
    const { email: address, callbackURL } = ctx.body;
    const session = await getSessionFromRequest(ctx);
    if (!session) {
      return withMinimumDuration(ANONYMOUS_FLOOR_MS, async () => {
        const found = await auth.internalAdapter.findUserByEmail(address);
        if (!found || found.user.emailVerified) {
          // The same signing work as the real path, so only the floor separates them.
          await createEmailVerificationToken(auth.secret, address, undefined, options.expiresIn);
        } else {
          await mailVerificationLink(ctx, found.user, callbackURL, false);
        }
        return { status: true };
      });
    }
    if (session.user.email.toLowerCase() !== address.toLowerCase())
      throw fail("BAD_REQUEST", "EMAIL_MISMATCH");
    if (session.user.emailVerified) throw fail("BAD_REQUEST", "EMAIL_ALREADY_VERIFIED");
    await mailVerificationLink(ctx, session.user, callbackURL, false);
    return { status: true };
  },
);

/** Signs the user in after verification, or refreshes the current session's cookie. */
async function signInVerified(ctx: EndpointContext, user: User, email: string): Promise<void> {
  const auth = ctx.context;
  const current = await getSessionFromRequest(ctx);
  if (current && current.user.email === email) {
    await setSessionCookie(ctx, { session: current.session, user: { ...current.user, emailVerified: true } });
    return;
  }
  const client = {
    ipAddress: getClientIP(ctx.headers, auth.options),
    userAgent: ctx.headers.get("user-agent"),
  };
  const session = await auth.internalAdapter.createSession(user.id, false, client, ctx);
  if (!session) throw fail("INTERNAL_SERVER_ERROR", "FAILED_TO_CREATE_SESSION");
  await setSessionCookie(ctx, { session, user: { ...user, emailVerified: true } });
}

/**
 * `GET /verify-email`: follows a verification link. Marks the address verified (or applies
 * an email change), then redirects to `callbackURL` or answers JSON. A bad link redirects
 * with `?error=<code>` when a callbackURL is given, else answers 401 with that code.
 */
export const verifyEmail = endpoint(
  "/verify-email",
  { method: "GET", query: v.object({ token: v.string(), callbackURL: v.optional(v.string()) }) },
  async (ctx) => {
    const auth = ctx.context;
    const { token, callbackURL } = ctx.query;
    // After validation, as the reference's per-route origin check runs.
    await assertTrustedCallbackURL(ctx, callbackURL);
    const verified = await verifyEmailVerificationToken(auth.secret, token);
    if ("failure" in verified) throw refuseVerification(ctx, verified.failure);
    const { claims } = verified;
    const found = await auth.internalAdapter.findUserByEmail(claims.email);
    if (!found) throw refuseVerification(ctx, "USER_NOT_FOUND");
    if (claims.updateTo) return applyEmailChange(ctx, found.user, claims, claims.updateTo);

    // Following the link again is harmless: no hooks, no new session.
    if (!found.user.emailVerified) {
      const options = auth.options.emailVerification;
      await options?.beforeEmailVerification?.(found.user, ctx.request);
      const updated = await auth.internalAdapter.updateUserByEmail(
        claims.email,
        { emailVerified: true },
        ctx,
      );
      await options?.afterEmailVerification?.(updated ?? { ...found.user, emailVerified: true }, ctx.request);
      if (options?.autoSignInAfterVerification) await signInVerified(ctx, found.user, claims.email);
    }
    if (callbackURL) throw ctx.redirect(callbackURL);
    return { status: true, user: null };
  },
);
