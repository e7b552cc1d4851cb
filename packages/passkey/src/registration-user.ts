import { getSessionFromRequest, type EndpointContext, type SessionWithUser } from "@latchkey/core";
import { PASSKEY_ERROR_CODES } from "./error-codes.js";
import type { PasskeyRegistrationUser, ResolvedPasskeyOptions } from "./options.js";

/** The request's session: the one the fresh-session guard resolved, or (registration without a required session) any. */
export async function registrationSession(
  ctx: EndpointContext,
  options: ResolvedPasskeyOptions,
): Promise<SessionWithUser | null> {
  return options.requireSession ? ctx.context.session : getSessionFromRequest(ctx);
}

/** The session's user as a registration user: named by email, else id (reference). */
function fromSession(session: SessionWithUser): PasskeyRegistrationUser {
  const name = session.user.email || session.user.id;
  return { id: session.user.id, name, displayName: name };
}

/**
 * The user a registration is for: the session's user; without a session (only when
 * `registration.requireSession` is false) the one `registration.resolveUser` names.
 * 401 `SESSION_REQUIRED`, 400 `RESOLVE_USER_REQUIRED` or 400 `RESOLVED_USER_INVALID` otherwise.
 */
export async function resolveRegistrationUser(
  ctx: EndpointContext,
  options: ResolvedPasskeyOptions,
  context: string | null,
): Promise<PasskeyRegistrationUser> {
  const session = await registrationSession(ctx, options);
  if (session?.user.id) return fromSession(session);
  if (options.requireSession) throw PASSKEY_ERROR_CODES.fail("SESSION_REQUIRED", "UNAUTHORIZED");
  const resolveUser = options.registration?.resolveUser;
  if (!resolveUser) throw PASSKEY_ERROR_CODES.fail("RESOLVE_USER_REQUIRED", "BAD_REQUEST");
  const user = await resolveUser({ ctx, context });
  if (!user || typeof user.id !== "string" || !user.id || typeof user.name !== "string" || !user.name) {
    throw PASSKEY_ERROR_CODES.fail("RESOLVED_USER_INVALID", "BAD_REQUEST");
  }
  return user;
}
