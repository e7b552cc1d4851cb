import { createHmac } from "node:crypto";
import { cookiePair, DONT_REMEMBER_COOKIE, SESSION_COOKIE, SESSION_DATA_COOKIE } from "../support/cookies.ts";
import { jsonPost, SECRET, type Pair } from "../support/instances.ts";

export { DONT_REMEMBER_COOKIE, SESSION_COOKIE, SESSION_DATA_COOKIE };

/** The seeded account every case may use; created by the reference, as an existing install. */
export interface Fixture {
  name: string;
  email: string;
  password: string;
  /** `better-auth.session_token=…` of a live session. */
  cookie: string;
  /** The raw session token of that session (for Bearer). */
  token: string;
  /** A correctly signed cookie for a token that has no session row. */
  orphanCookie: string;
}

/** Signs `value` the way better-call does (core.md §6.3), independently of both implementations. */
export function signCookieValue(value: string, secret = SECRET): string {
  const signature = createHmac("sha256", secret).update(value).digest("base64");
  return encodeURIComponent(`${value}.${signature}`);
}

export async function seedFixture(pair: Pair): Promise<Fixture> {
  const user = { name: "Seed User", email: "seed@example.com", password: "seed-password-1" };
  const signUp = await pair.reference(jsonPost("/sign-up/email", user));
  if (signUp.status !== 200) throw new Error(`seeding failed: ${signUp.status} ${await signUp.text()}`);
  const { token } = (await signUp.json()) as { token: string };
  return {
    ...user,
    cookie: cookiePair(signUp, SESSION_COOKIE),
    token,
    orphanCookie: `${SESSION_COOKIE}=${signCookieValue("NoSuchSessionToken0123456789abcd")}`,
  };
}

/** Cookie attributes on http:// (no Secure, no __Secure- prefix; core.md §6.1-6.2). */
export const PERSISTENT = { "max-age": "604800", path: "/", httponly: true, samesite: "Lax" } as const;
export const BROWSER_SESSION = { path: "/", httponly: true, samesite: "Lax" } as const;
export const EXPIRED = { "max-age": "0", path: "/", httponly: true, samesite: "Lax" } as const;
/** Sign-out and a dead session expire all three cookies. */
export const EXPIRED_COOKIES = {
  [SESSION_COOKIE]: EXPIRED,
  [SESSION_DATA_COOKIE]: EXPIRED,
  [DONT_REMEMBER_COOKIE]: EXPIRED,
};
