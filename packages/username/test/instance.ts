import { client, testAuth, type DatabaseKind, type TestAuth, type TestClient } from "@latchkey/test-support";
import { username, type UsernameOptions } from "../src/index.ts";

export const PASSWORD = "correct horse battery";

/** An instance with email/password and `username(options)` on a fresh database. */
export const usernameInstance = (db: DatabaseKind, options?: UsernameOptions, extra: object = {}): Promise<TestAuth> =>
  testAuth({ emailAndPassword: { enabled: true }, plugins: [username(options)], ...extra }, { db });

/** Signs a user up with these extra fields through a fresh browser; the answer and the browser. */
export async function signUpWith(t: TestAuth, email: string, fields: Record<string, unknown>) {
  const browser = client(t.auth);
  const answer = await browser.post<{ token: string; user: Record<string, unknown> }>("/sign-up/email", {
    email,
    password: PASSWORD,
    name: "Name",
    ...fields,
  });
  return { answer, browser };
}

/** The stored user row with this email (raw columns through the adapter). */
export async function storedUser(t: TestAuth, email: string): Promise<Record<string, unknown> | null> {
  return t.auth.$context.adapter.findOne<Record<string, unknown>>({ model: "user", where: [{ field: "email", value: email }] });
}

/** `/sign-in/username` through a fresh browser. */
export const signInUsername = (t: TestAuth, body: Record<string, unknown>): ReturnType<TestClient["post"]> =>
  client(t.auth).post("/sign-in/username", body);
