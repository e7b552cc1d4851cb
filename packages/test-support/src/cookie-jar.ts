/** True when a Set-Cookie line's attributes delete the cookie (Max-Age <= 0 or an Expires in the past). */
function deletes(attributes: string[], now: number): boolean {
  return attributes.some((attribute) => {
    const [key = "", ...rest] = attribute.trim().split("=");
    const value = rest.join("=");
    if (key.toLowerCase() === "max-age") return Number(value) <= 0;
    if (key.toLowerCase() === "expires") return Date.parse(value) <= now;
    return false;
  });
}

/**
 * One host's cookies, as a browser keeps them: each Set-Cookie line sets its cookie, and a
 * Max-Age of zero, an Expires in the past or an empty value deletes it. Domain and Path are
 * not matched: a test talks to one host under one base path.
 */
export class CookieJar {
  /** Cookie name → value, as the server set it (still encoded). */
  readonly values = new Map<string, string>();

  /** Takes in every Set-Cookie line of `response`. */
  absorb(response: Response): void {
    for (const line of response.headers.getSetCookie()) this.apply(line);
  }

  /** Applies one Set-Cookie line. */
  apply(line: string): void {
    const [pair = "", ...attributes] = line.split(";");
    const eq = pair.indexOf("=");
    if (eq < 0) return;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (deletes(attributes, Date.now()) || value === "") this.values.delete(name);
    else this.values.set(name, value);
  }

  /** The `Cookie` header for the next request, or `undefined` when the jar is empty. */
  header(): string | undefined {
    if (this.values.size === 0) return undefined;
    return [...this.values].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/**
 * A `fetch` that sends requests straight to `handler` (an instance's `auth.handler`, no socket)
 * with one browser's cookies: what a `@latchkey/client` under test is given as its `fetch`.
 *
 * @example
 * const client = createAuthClient({ baseURL, fetch: browserFetch(t.auth.handler), plugins });
 */
export function browserFetch(
  handler: (request: Request) => Promise<Response>,
  jar: CookieJar = new CookieJar(),
): (url: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const headers = new Headers(init?.headers);
    const cookie = jar.header();
    if (cookie) headers.set("cookie", cookie);
    const response = await handler(new Request(url, { ...init, headers }));
    jar.absorb(response);
    return response;
  };
}
