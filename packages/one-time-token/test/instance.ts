import { client, testAuth, type DatabaseKind, type TestAuth, type TestClient } from "@latchkey/test-support";
import { oneTimeToken, type OneTimeTokenOptions } from "../src/index.ts";

export const PASSWORD = "correct horse battery";
export const SESSION_COOKIE = "better-auth.session_token";

/** An instance with email/password and `oneTimeToken(options)` on a fresh database. */
export const ottInstance = (db: DatabaseKind, options?: OneTimeTokenOptions, extra: object = {}): Promise<TestAuth> =>
  testAuth({ emailAndPassword: { enabled: true }, plugins: [oneTimeToken(options)], ...extra }, { db });

/** Signs `name` up through a fresh browser; returns the browser (signed in) and the session token. */
export async function signedIn(t: TestAuth, name: string): Promise<{ browser: TestClient; token: string; userId: string }> {
  const browser = client(t.auth);
  const answer = await browser.post<{ token: string; user: { id: string } }>("/sign-up/email", {
    email: `${name}@example.com`,
    password: PASSWORD,
    name,
  });
  if (answer.status !== 200 || !answer.json) throw new Error(`sign-up failed: ${answer.status} ${answer.text}`);
  return { browser, token: answer.json.token, userId: answer.json.user.id };
}

/** A one-time token for the browser's session. */
export async function generate(browser: TestClient): Promise<string> {
  const answer = await browser.get<{ token: string }>("/one-time-token/generate");
  if (answer.status !== 200 || !answer.json) throw new Error(`generate failed: ${answer.status} ${answer.text}`);
  return answer.json.token;
}

/** The same token sent to `/one-time-token/verify` by `n` fresh clients at once; their statuses. */
export async function redeemInParallel(t: TestAuth, token: string, n = 10): Promise<number[]> {
  const answers = await Promise.all(
    Array.from({ length: n }, () => client(t.auth).post("/one-time-token/verify", { token })),
  );
  return answers.map((a) => a.status);
}
