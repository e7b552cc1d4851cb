import { client, testAuth, type DatabaseKind, type TestAuth, type TestClient } from "@latchkey/test-support";
import { multiSession, type MultiSessionOptions } from "../src/index.ts";

export const SESSION_COOKIE = "better-auth.session_token";
export const PASSWORD = "correct horse battery";

/** The multi cookie name the reference gives `token`. */
export const multiName = (token: string): string => `${SESSION_COOKIE}_multi-${token.toLowerCase()}`;

/** An instance with email/password and `multiSession(options)` on a fresh database. */
export const multiInstance = (db: DatabaseKind, options?: MultiSessionOptions): Promise<TestAuth> =>
  testAuth({ emailAndPassword: { enabled: true }, plugins: [multiSession(options)] }, { db });

/** Signs user `n` up through `browser` (which ends up signed in as them) and returns the session token. */
export async function signUp(browser: TestClient, n: number | string): Promise<string> {
  const answer = await browser.post<{ token: string }>("/sign-up/email", {
    email: `user${n}@example.com`,
    password: PASSWORD,
    name: `User ${n}`,
  });
  if (answer.status !== 200 || !answer.json) throw new Error(`sign-up failed: ${answer.status}`);
  return answer.json.token;
}

/** Signs user `n` in again through `browser` and returns the new session token. */
export async function signIn(browser: TestClient, n: number | string): Promise<string> {
  const answer = await browser.post<{ token: string }>("/sign-in/email", { email: `user${n}@example.com`, password: PASSWORD });
  if (answer.status !== 200 || !answer.json) throw new Error(`sign-in failed: ${answer.status}`);
  return answer.json.token;
}

/** The multi cookies the browser holds, by name. */
export const multiCookies = (browser: TestClient): string[] =>
  [...browser.jar.values.keys()].filter((name) => name.startsWith(`${SESSION_COOKIE}_multi-`)).sort();

/** The email of the browser's active session, or null. */
export async function activeEmail(browser: TestClient): Promise<string | null> {
  const answer = await browser.get<{ user: { email: string } } | null>("/get-session");
  return answer.json?.user.email ?? null;
}

/** The emails `list-device-sessions` answers, sorted. */
export async function listedEmails(browser: TestClient): Promise<string[]> {
  const answer = await browser.get<{ user: { email: string } }[]>("/multi-session/list-device-sessions");
  if (answer.status !== 200 || !answer.json) throw new Error(`list failed: ${answer.status}`);
  return answer.json.map((entry) => entry.user.email).sort();
}

export { client };
