import type { Auth } from "@latchkey/core";
import { CookieJar } from "./cookie-jar.js";
import { TEST_BASE_URL } from "./test-auth.js";

/** An answer: the Response (body still readable), its text and its JSON when it parses. */
export interface ClientAnswer<T = unknown> {
  response: Response;
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or `undefined` when the body is empty or not JSON. */
  json: T | undefined;
}

/** How a {@link client} addresses the instance. */
export interface ClientOptions {
  /** Origin the instance answers on. @default the instance's string `baseURL`, else http://localhost:3000 */
  baseURL?: string;
  /** `Origin` sent with every request: `true` for the base URL's origin. @default none */
  origin?: string | boolean;
  /** Headers sent with every request (a request's own headers win). */
  headers?: Record<string, string>;
}

/** A request helper bound to one instance, keeping cookies across calls. */
export interface TestClient {
  /** The cookies held; edit it to forge or drop one. */
  jar: CookieJar;
  /** The auth base URL paths are relative to, e.g. `http://localhost:3000/api/auth`. */
  base: string;
  /** Any request; `path` is relative to {@link TestClient.base} unless it is a full URL. */
  request<T = unknown>(path: string, init?: RequestInit): Promise<ClientAnswer<T>>;
  get<T = unknown>(path: string, init?: RequestInit): Promise<ClientAnswer<T>>;
  /**
   * A POST: an object is sent as JSON, a string as is (with `Content-Type: application/json`
   * unless `init.headers` says otherwise), `undefined` as no body and no Content-Type.
   */
  post<T = unknown>(path: string, body?: unknown, init?: RequestInit): Promise<ClientAnswer<T>>;
}

async function answer<T>(response: Response): Promise<ClientAnswer<T>> {
  const text = await response.clone().text();
  let json: T | undefined;
  try {
    json = text ? (JSON.parse(text) as T) : undefined;
  } catch {
    json = undefined;
  }
  return { response, status: response.status, headers: response.headers, text, json };
}

/**
 * A client for `auth.handler` (no socket) with a cookie jar: Set-Cookie lines are kept and
 * sent back, and Max-Age=0 or past Expires deletes a cookie, as a browser does.
 *
 * @example
 * const c = client(auth, { origin: true });
 * await c.post("/sign-up/email", { name, email, password });
 * expect((await c.get("/get-session")).json).toMatchObject({ user: { email } });
 */
export function client(auth: Auth, options: ClientOptions = {}): TestClient {
  const configured = typeof auth.options.baseURL === "string" ? auth.options.baseURL : undefined;
  const origin = new URL(options.baseURL ?? configured ?? TEST_BASE_URL).origin;
  const base = `${origin}${auth.$context.basePath}`;
  const jar = new CookieJar();
  const sentOrigin = options.origin === true ? origin : options.origin || undefined;

  const request = async <T>(path: string, init: RequestInit = {}): Promise<ClientAnswer<T>> => {
    const headers = new Headers(options.headers);
    if (sentOrigin) headers.set("origin", sentOrigin);
    const cookie = jar.header();
    if (cookie) headers.set("cookie", cookie);
    new Headers(init.headers).forEach((value, name) => headers.set(name, value));
    const url = /^https?:\/\//.test(path) ? path : `${base}${path}`;
    const response = await auth.handler(new Request(url, { ...init, headers, redirect: "manual" }));
    jar.absorb(response);
    return answer<T>(response);
  };

  return {
    jar,
    base,
    request,
    get: (path, init = {}) => request(path, { ...init, method: "GET" }),
    post: (path, body, init = {}) => {
      if (body === undefined) return request(path, { ...init, method: "POST" });
      const headers = new Headers(init.headers);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
      const text = typeof body === "string" ? body : JSON.stringify(body);
      return request(path, { ...init, method: "POST", headers, body: text });
    },
  };
}
