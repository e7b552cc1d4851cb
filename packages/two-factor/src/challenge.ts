import {
  fail,
  getClientIP,
  getSessionFromRequest,
  setSessionCookie,
  toOutput,
  type EndpointContext,
  type Session,
  type Verification,
} from "@latchkey/core";
import { TWO_FACTOR_ERROR_CODES } from "./error-codes.js";
import type { ResolvedTwoFactorOptions, UserWithTwoFactor } from "./options.js";
import { trustDevice } from "./trust-device.js";

/** Cookie name (after the prefix) of a pending sign-in's second-factor challenge. */
export const TWO_FACTOR_COOKIE = "two_factor";

/** Attempts a sign-in challenge allows across TOTP and backup codes (the reference's fixed 5). */
export const CHALLENGE_ATTEMPTS = 5;

/** What a verification answers on success: the session token and the user. */
export interface VerifiedAnswer {
  token: string | undefined;
  user: UserWithTwoFactor;
}

/** One claimed challenge attempt (sign-in only); settle it with one of the two. */
export interface ChallengeAttempt {
  recordFailure(): Promise<void>;
  restore(): Promise<void>;
}

/**
 * Who is verifying a code: a signed-in user (enrolling, or re-proving), or a pending sign-in
 * holding the `two_factor` cookie. `session` is null for the latter.
 */
export interface Verifier {
  user: UserWithTwoFactor;
  session: Session | null;
  /** Key of the user's sent OTP: the challenge identifier, or `<userId>!<sessionId>`. */
  key: string;
  /** Sign-in: takes one of the challenge's attempts (concurrent attempts on one challenge get 401). */
  beginAttempt(): Promise<ChallengeAttempt>;
  /** The success answer; at sign-in this consumes the challenge and starts the session. */
  complete(): Promise<VerifiedAnswer>;
}

const invalidCookie = () => TWO_FACTOR_ERROR_CODES.fail("INVALID_TWO_FACTOR_COOKIE", "UNAUTHORIZED");

/** The verifier of this request: its session, else its `two_factor` cookie (401 `INVALID_TWO_FACTOR_COOKIE` without either). */
export async function resolveVerifier(
  ctx: EndpointContext<{ trustDevice?: boolean | undefined } | undefined>,
  options: ResolvedTwoFactorOptions,
): Promise<Verifier> {
  const auth = ctx.context;
  const session = await getSessionFromRequest(ctx);
  if (session) {
    const user = session.user as UserWithTwoFactor;
    return {
      user,
      session: session.session,
      key: `${user.id}!${session.session.id}`,
      beginAttempt: async () => ({ recordFailure: async () => {}, restore: async () => {} }),
      complete: async () => ({ token: session.session.token, user: toOutput(auth.schema, "user", user) }),
    };
  }
  const cookie = auth.authCookies.create(TWO_FACTOR_COOKIE);
  const identifier = await ctx.getSignedCookie(cookie.name);
  if (!identifier) throw invalidCookie();
  const challenge = await auth.internalAdapter.findVerificationValue(identifier);
  if (!challenge) throw invalidCookie();
  const user = (await auth.internalAdapter.findUserById(challenge.value)) as UserWithTwoFactor | null;
  if (!user) throw invalidCookie();
  return {
    user,
    session: null,
    key: identifier,
    beginAttempt: () => beginChallengeAttempt(ctx, identifier, challenge),
    complete: async () => {
      // Single use: of concurrent completions of one challenge exactly one gets the session.
      const consumed = await auth.internalAdapter.consumeVerificationValue(identifier);
      if (!consumed || consumed.value !== user.id) {
        ctx.expireCookie(cookie);
        throw invalidCookie();
      }
      const dontRemember = !!(await ctx.getSignedCookie(auth.authCookies.dontRememberToken.name));
      const client = { ipAddress: getClientIP(ctx.headers, auth.options), userAgent: ctx.headers.get("user-agent") };
      const created = await auth.internalAdapter.createSession(user.id, dontRemember, client, ctx);
      if (!created) throw fail("INTERNAL_SERVER_ERROR", "FAILED_TO_CREATE_SESSION");
      await setSessionCookie(ctx, { session: created, user });
      ctx.expireCookie(cookie);
      if (ctx.body?.trustDevice) {
        await trustDevice(ctx, user.id, options.trustDeviceMaxAge);
        ctx.expireCookie(auth.authCookies.dontRememberToken);
      }
      return { token: created.token, user: toOutput(auth.schema, "user", user) };
    },
  };
}

/**
 * Takes the challenge's attempt counter (`2fa-attempts-<identifier>`) out of storage for the
 * time of one check, so checks on one challenge never overlap; the counter goes back +1 after
 * a wrong code, unchanged after an error. Past {@link CHALLENGE_ATTEMPTS} the challenge itself
 * is consumed: 400 `TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE` (sign in again).
 */
async function beginChallengeAttempt(ctx: EndpointContext, identifier: string, challenge: Verification): Promise<ChallengeAttempt> {
  const auth = ctx.context;
  const counterId = `2fa-attempts-${identifier}`;
  const counter = await auth.internalAdapter.consumeVerificationValue(counterId);
  if (!counter) throw invalidCookie();
  const parsed = Number(counter.value);
  const attempts = Number.isInteger(parsed) && parsed >= 0 ? parsed : CHALLENGE_ATTEMPTS;
  if (attempts >= CHALLENGE_ATTEMPTS) {
    await auth.internalAdapter.consumeVerificationValue(identifier);
    ctx.expireCookie(auth.authCookies.create(TWO_FACTOR_COOKIE));
    throw TWO_FACTOR_ERROR_CODES.fail("TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE", "BAD_REQUEST");
  }
  const rearm = async (count: number): Promise<void> => {
    await auth.internalAdapter.createVerificationValue({ value: `${count}`, identifier: counterId, expiresAt: challenge.expiresAt }, ctx);
  };
  return { recordFailure: () => rearm(attempts + 1), restore: () => rearm(attempts) };
}
