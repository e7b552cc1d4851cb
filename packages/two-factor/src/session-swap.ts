import { fail, setSessionCookie, type EndpointContext, type Session, type SessionWithUser, type User } from "@latchkey/core";

/**
 * Replaces the request's session with a new one for `user` (whose `twoFactorEnabled` just
 * changed), as the reference does: the new session copies the old one's fields (client
 * details, plugin fields such as an active organization), gets the session cookie, and the
 * old session is deleted.
 */
export async function replaceSession(ctx: EndpointContext, current: Session, user: User): Promise<SessionWithUser> {
  const { id: _id, token, userId: _userId, expiresAt: _e, createdAt: _c, updatedAt: _u, ...carried } = current;
  const auth = ctx.context;
  const client = { ipAddress: current.ipAddress ?? null, userAgent: current.userAgent ?? null };
  const session = await auth.internalAdapter.createSession(user.id, false, client, ctx, carried);
  if (!session) throw fail("INTERNAL_SERVER_ERROR", "FAILED_TO_CREATE_SESSION");
  const replaced = { session, user };
  await setSessionCookie(ctx, replaced);
  await auth.internalAdapter.deleteSession(token, ctx);
  return replaced;
}
