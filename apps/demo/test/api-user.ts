import { CookieJar } from "@latchkey/test-support";

/** The password every e2e account is created with (as `signUp` in e2e-browser.ts). */
export const PASSWORD = "correct horse battery";

/** A user signed up over HTTP, no browser: a test's set-up calls the API as them. */
export interface APIUser {
  id: string;
  email: string;
  /** `POST` with `body`, else `GET`, on `/api/auth<path>` with this user's cookies; throws on an error status. */
  call<T = unknown>(path: string, body?: unknown): Promise<T>;
}

/** Signs up `email` with {@link PASSWORD} on the demo at `baseURL` and keeps the session's cookies. */
export async function apiUser(baseURL: string, email: string): Promise<APIUser> {
  const jar = new CookieJar();
  const call = async <T>(path: string, body?: unknown): Promise<T> => {
    // The Origin a browser sends: the demo refuses cookie-carrying POSTs from other origins.
    const headers: Record<string, string> = { origin: baseURL };
    const cookie = jar.header();
    if (cookie) headers.cookie = cookie;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${baseURL}/api/auth${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    jar.absorb(res);
    const text = await res.text();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };
  const { user } = await call<{ user: { id: string } }>("/sign-up/email", { name: email.split("@")[0], email, password: PASSWORD });
  return { id: user.id, email, call };
}
