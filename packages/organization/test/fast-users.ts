import { signCookieValue } from "@latchkey/core";
import { client, TEST_SECRET, type TestAuth, type TestClient } from "@latchkey/test-support";

/** A user with a live session, written straight through the internal adapter (no password hashing). */
export interface FastUser {
  userId: string;
  email: string;
  browser: TestClient;
  /** The `cookie` header carrying the session. */
  cookie: string;
}

/**
 * Creates `name@example.com` (email verified) and a session for it, and answers a client
 * sending that session's signed cookie: many users in little time for the concurrency tests.
 */
export async function fastUser(t: TestAuth, name: string): Promise<FastUser> {
  const { internalAdapter } = t.auth.$context;
  const email = `${name}@example.com`;
  const user = await internalAdapter.createUser({ email, name, emailVerified: true });
  if (!user) throw new Error("createUser vetoed");
  const session = await internalAdapter.createSession(user.id, false);
  if (!session) throw new Error("createSession vetoed");
  const signed = await signCookieValue(session.token, TEST_SECRET);
  const cookie = `better-auth.session_token=${encodeURIComponent(signed)}`;
  return { userId: user.id, email, cookie, browser: client(t.auth, { headers: { cookie } }) };
}

/** `fastUser` for `prefix-0` … `prefix-(n-1)`. */
export function fastUsers(t: TestAuth, prefix: string, n: number): Promise<FastUser[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => fastUser(t, `${prefix}-${i}`)));
}
