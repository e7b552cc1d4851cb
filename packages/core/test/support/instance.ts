import { createAuth, memoryAdapter, type LatchkeyOptions, type Row } from "../../src/index.ts";

export const BASE = "http://localhost:3000";
export const SECRET = "a-test-secret-that-is-long-enough-0123456789";

/** A core instance on an in-process memory store, plus request helpers and the raw store. */
export function testInstance<O extends Partial<LatchkeyOptions>>(options: O = {} as O) {
  const store: Record<string, Row[]> = {};
  const auth = createAuth({
    database: memoryAdapter(store),
    secret: SECRET,
    baseURL: BASE,
    emailAndPassword: { enabled: true },
    ...options,
  });
  const request = (path: string, init: RequestInit = {}) =>
    auth.handler(new Request(`${BASE}/api/auth${path}`, init));
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const count = (model: string) => (store[model] ?? []).length;
  return { auth, store, request, post, count };
}

/** `name=value` of a Set-Cookie line, for sending back. */
export const cookiePair = (setCookie: string): string => setCookie.split(";")[0]!;

/** The Set-Cookie line for `name`, if the response has one. */
export const findCookie = (res: Response, name: string): string | undefined =>
  res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
