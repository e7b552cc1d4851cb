import { client, testAuth, type DatabaseKind, type TestAuth, type TestClient } from "@latchkey/test-support";
import type { LatchkeyOptions } from "@latchkey/core";
import { admin, type AdminOptions } from "../src/index.ts";

export const PASSWORD = "correct horse battery";
export const SESSION_COOKIE = "better-auth.session_token";
export const ADMIN_COOKIE = "better-auth.admin_session";

/** An instance with email/password and `admin(options)` on a fresh database. */
export const adminInstance = (
  db: DatabaseKind,
  options?: AdminOptions,
  extra: Omit<Partial<LatchkeyOptions>, "database"> = {},
): Promise<TestAuth> =>
  testAuth({ emailAndPassword: { enabled: true }, ...extra, plugins: [admin(options), ...(extra.plugins ?? [])] }, { db });

/** A signed-up user: its browser (signed in), id, email and session token. */
export interface Member {
  browser: TestClient;
  id: string;
  email: string;
  token: string;
}

/** Signs `name` up through a fresh browser; with `role`, stores that role on the user and signs in again. */
export async function member(t: TestAuth, name: string, role?: string): Promise<Member> {
  const browser = client(t.auth);
  const email = `${name}@example.com`;
  const up = await browser.post<{ token: string; user: { id: string } }>("/sign-up/email", { email, password: PASSWORD, name });
  if (up.status !== 200 || !up.json) throw new Error(`sign-up of ${name} failed: ${up.status} ${up.text}`);
  if (role) await t.auth.$context.internalAdapter.updateUser(up.json.user.id, { role } as never);
  return { browser, id: up.json.user.id, email, token: up.json.token };
}

/** Signs `email` in through a fresh browser and answers the sign-in's status and body. */
export async function signIn(t: TestAuth, email: string, password = PASSWORD) {
  const browser = client(t.auth);
  const answer = await browser.post<{ token?: string; code?: string; message?: string }>("/sign-in/email", { email, password });
  return { browser, answer };
}

/** The stored user row. */
export const storedUser = (t: TestAuth, id: string) =>
  t.auth.$context.internalAdapter.findUserById(id) as Promise<Record<string, unknown> | null>;

export { client };
