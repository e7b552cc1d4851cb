import { client, testAuth, type DatabaseKind, type TestAuth, type TestClient } from "@latchkey/test-support";
import { passkey, type PasskeyOptions } from "../src/index.ts";
import { SoftwareAuthenticator } from "@latchkey/test-support";

export const ORIGIN = "http://localhost:3000";
export const PASSWORD = "correct horse battery";
export const CHALLENGE_COOKIE = "better-auth.better-auth-passkey";

/** An instance with email/password and `passkey(options)` on a fresh database. */
export const passkeyInstance = (db: DatabaseKind, options?: PasskeyOptions): Promise<TestAuth> =>
  testAuth({ emailAndPassword: { enabled: true }, plugins: [passkey(options)] }, { db });

/** A browser sending the instance's own Origin, as a page's fetch does. */
export const browser = (t: TestAuth): TestClient => client(t.auth, { origin: ORIGIN });

/** Signs `email` up through `b` (which ends up signed in) and returns the user id. */
export async function signUp(b: TestClient, email: string): Promise<string> {
  const answer = await b.post<{ user: { id: string } }>("/sign-up/email", { email, password: PASSWORD, name: email });
  if (answer.status !== 200 || !answer.json) throw new Error(`sign-up failed: ${answer.status} ${answer.text}`);
  return answer.json.user.id;
}

/** Registers a new credential of `authenticator` through `b`; returns the verify answer. */
export async function register(
  b: TestClient,
  authenticator: SoftwareAuthenticator,
  body: Record<string, unknown> = {},
  query = "",
) {
  const options = await b.get<{ challenge: string; rp: { id: string }; user: { id: string } }>(
    `/passkey/generate-register-options${query}`,
  );
  if (options.status !== 200 || !options.json) throw new Error(`register options: ${options.status} ${options.text}`);
  return b.post<Record<string, unknown>>("/passkey/verify-registration", {
    response: authenticator.register(options.json),
    ...body,
  });
}

/** Options for a sign-in, then the assertion for them (not yet sent). */
export async function assertion(b: TestClient, authenticator: SoftwareAuthenticator, counter?: number) {
  const options = await b.get<{ challenge: string; rpId: string }>("/passkey/generate-authenticate-options");
  if (options.status !== 200 || !options.json) throw new Error(`authenticate options: ${options.status}`);
  return { options: options.json, response: authenticator.assert(options.json, undefined, counter === undefined ? {} : { counter }) };
}

/** A full passkey sign-in through `b`. */
export async function signInWithPasskey(b: TestClient, authenticator: SoftwareAuthenticator) {
  const { response } = await assertion(b, authenticator);
  return b.post<{ session: { token: string; userId: string }; user: { id: string; email: string } }>(
    "/passkey/verify-authentication",
    { response },
  );
}

export { SoftwareAuthenticator };
