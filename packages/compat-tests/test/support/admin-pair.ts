import { admin as referenceAdmin } from "better-auth/plugins";
import { admin, type AdminOptions } from "@latchkey/admin";
import { cookiePair, responseCookies, SESSION_COOKIE } from "./cookies.ts";
import { createPair, jsonPost, url, type Handler, type Pair } from "./instances.ts";

export const PASSWORD = "password-1234";
export const ADMIN_COOKIE = "better-auth.admin_session";

/** The reference's `admin()` and `@latchkey/admin` with the same options, on one SQLite file. */
export const createAdminPair = (options: AdminOptions = {}): Promise<Pair> =>
  createPair({
    reference: { plugins: [referenceAdmin(options as Parameters<typeof referenceAdmin>[0])] },
    latchkey: { plugins: [admin(options)] },
  });

/** A user signed up on one side: its id, email and the `Cookie` header of its session. */
export interface PairUser {
  id: string;
  email: string;
  cookie: string;
  token: string;
}

/** Signs `email` up through `handler`; with `role`, stores that role on the row. */
export async function signUp(pair: Pair, handler: Handler, email: string, role?: string): Promise<PairUser> {
  const response = await handler(jsonPost("/sign-up/email", { email, password: PASSWORD, name: email }));
  const body = (await response.json()) as { user: { id: string }; token: string };
  if (role) pair.db.prepare(`update "user" set "role" = ? where "id" = ?`).run([role, body.user.id]);
  return { id: body.user.id, email, cookie: cookiePair(response, SESSION_COOKIE), token: body.token };
}

/** Signs `email` in through `handler`: status and parsed body. */
export async function signIn(handler: Handler, email: string): Promise<{ status: number; body: unknown; response: Response }> {
  const response = await handler(jsonPost("/sign-in/email", { email, password: PASSWORD }));
  const text = await response.clone().text();
  return { status: response.status, body: text ? JSON.parse(text) : null, response };
}

/** A request with a `Cookie` header: GET without a body, POST with JSON. */
export function adminRequest(method: "GET" | "POST", path: string, cookie: string, body?: unknown): Request {
  const headers: Record<string, string> = cookie ? { cookie } : {};
  if (method === "GET") return new Request(url(path), { headers });
  return new Request(url(path), {
    method,
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
}

/** Sends one admin request and reads status and JSON (null for an empty body). */
export async function call(handler: Handler, method: "GET" | "POST", path: string, cookie: string, body?: unknown) {
  const response = await handler(adminRequest(method, path, cookie, body));
  const text = await response.clone().text();
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null, response };
}

/** The stored user row. */
export const userRow = (pair: Pair, id: string): Record<string, unknown> =>
  pair.db.prepare(`select * from "user" where "id" = ?`).all([id])[0] as Record<string, unknown>;

/** `name=value` of the last non-empty cookie `name` a response sets (impersonation expires, then sets, the session cookie). */
export function lastCookie(response: Response, name: string): string {
  const found = responseCookies(response).filter((c) => c.name === name && c.value !== "").at(-1);
  if (!found) throw new Error(`response sets no ${name} cookie`);
  return `${found.name}=${found.value}`;
}
