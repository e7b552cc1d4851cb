import { PUBLIC_ORIGIN } from "./node-config.ts";
import type { NodeAddress } from "./node-process.ts";

/** Default cookie names on http:// (prefix `better-auth`, no `__Secure-`). */
export const SESSION_COOKIE = "better-auth.session_token";
export const SESSION_DATA_COOKIE = "better-auth.session_data";

/**
 * A browser-like cookie jar for one client talking to either node (both answer for one public
 * origin). Drops cookies that Set-Cookie expires and remembers when each was last set.
 */
export class CookieJar {
  private readonly cookies = new Map<string, { value: string; setAt: number }>();

  store(response: Response, receivedAt = Date.now()): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const maxAge = attributes.map((a) => a.trim().toLowerCase()).find((a) => a.startsWith("max-age="));
      if (value === "" || (maxAge !== undefined && Number(maxAge.slice(8)) <= 0)) this.cookies.delete(name);
      else this.cookies.set(name, { value, setAt: receivedAt });
    }
  }

  /** A second client holding the same cookies (another tab, or a copied cookie). */
  clone(): CookieJar {
    const copy = new CookieJar();
    for (const [name, entry] of this.cookies) copy.cookies.set(name, { ...entry });
    return copy;
  }

  get(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }

  /** When the response that last set `name` was received (epoch ms). */
  setAt(name: string): number | undefined {
    return this.cookies.get(name)?.setAt;
  }

  header(): string {
    return [...this.cookies].map(([name, { value }]) => `${name}=${value}`).join("; ");
  }
}

/** An answer with its body read, and when the request left and the answer arrived. */
export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: T;
  sentAt: number;
  receivedAt: number;
}

/** Request options: a JSON body (POST), the client's jar and extra headers. */
export interface CallOptions {
  method?: "GET" | "POST";
  json?: unknown;
  jar?: CookieJar;
  headers?: Record<string, string>;
}

/**
 * One request to `node` at `/api/auth<path>` over real HTTP. POSTs carry the public origin as
 * `Origin`, as a page of the app would; the jar, when given, sends its cookies and keeps
 * what the answer sets.
 */
export async function call<T = unknown>(
  node: NodeAddress,
  path: string,
  options: CallOptions = {},
): Promise<Answer<T>> {
  const method = options.method ?? (options.json === undefined ? "GET" : "POST");
  const headers = new Headers(options.headers);
  if (method === "POST") {
    headers.set("origin", PUBLIC_ORIGIN);
    headers.set("content-type", "application/json");
  }
  const cookie = options.jar?.header();
  if (cookie) headers.set("cookie", cookie);
  const sentAt = Date.now();
  const res = await fetch(`${node.origin}/api/auth${path}`, {
    method,
    headers,
    ...(method === "POST" && { body: JSON.stringify(options.json ?? {}) }),
  });
  const text = await res.text();
  const receivedAt = Date.now();
  options.jar?.store(res, receivedAt);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: body as T, sentAt, receivedAt };
}
