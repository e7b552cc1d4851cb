import { createAuth, memoryAdapter, type LatchkeyOptions } from "@latchkey/core";
import { bearer, type BearerOptions } from "../src/index.ts";

export const SECRET = "bearer-test-secret-that-is-long-enough-0123456789";
export const BASE = "http://localhost:3000";

export const user = { name: "Ada", email: "ada@example.com", password: "correct horse battery" };

/** A core instance with `bearer()` on a memory store, and request helpers. */
export function bearerInstance(options: Partial<LatchkeyOptions> = {}, bearerOptions?: BearerOptions) {
  const baseURL = options.baseURL ?? BASE;
  const auth = createAuth({
    database: memoryAdapter(),
    secret: SECRET,
    baseURL,
    emailAndPassword: { enabled: true },
    ...options,
    plugins: [bearer(bearerOptions), ...(options.plugins ?? [])],
  });
  const request = (path: string, init: RequestInit = {}): Promise<Response> =>
    auth.handler(new Request(`${baseURL}/api/auth${path}`, init));
  const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    request(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  return { auth, request, post };
}

/** The decoded value of the `name` cookie a response sets. */
export function cookieValue(response: Response, name: string): string | undefined {
  const line = response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return line === undefined ? undefined : decodeURIComponent(line.slice(name.length + 1).split(";")[0]!);
}
