import { client, testAuth, type DatabaseKind, type TestAuth, type TestClient } from "@latchkey/test-support";
import { anonymous, type AnonymousOptions } from "../src/index.ts";

export const PASSWORD = "correct horse battery";
export const PLACEHOLDER = /^[a-z0-9]{32}@anonymous\.placeholder\.invalid$/;

/** An instance with email/password and `anonymous(options)` on a fresh database. */
export const anonymousInstance = (db: DatabaseKind, options?: AnonymousOptions): Promise<TestAuth> =>
  testAuth({ emailAndPassword: { enabled: true }, plugins: [anonymous(options)] }, { db });

interface SignInAnswer {
  token: string;
  user: { id: string; email: string; name: string; isAnonymous: boolean };
}

/** Signs `browser` in anonymously and returns the answer's user and token. */
export async function signInAnonymously(browser: TestClient): Promise<SignInAnswer> {
  const answer = await browser.post<SignInAnswer>("/sign-in/anonymous");
  if (answer.status !== 200 || !answer.json)
    throw new Error(`anonymous sign-in failed: ${answer.status} ${answer.text}`);
  return answer.json;
}

/** Signs `browser` up as `email` (a password account) and returns the new user's id. */
export async function signUp(browser: TestClient, email: string): Promise<string> {
  const answer = await browser.post<{ user: { id: string } }>("/sign-up/email", {
    email,
    password: PASSWORD,
    name: "Real",
  });
  if (answer.status !== 200 || !answer.json)
    throw new Error(`sign-up failed: ${answer.status} ${answer.text}`);
  return answer.json.user.id;
}

export { client };
