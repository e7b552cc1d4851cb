import { CookieJar } from "./cookie-jar.js";

/**
 * A small browser for redirect flows across two servers: the auth instance (reached through
 * its handler, no socket) and a real IdP on 127.0.0.1 (reached with fetch). It keeps one
 * cookie jar per host, honours Max-Age/Expires deletions and follows redirects by hand so a
 * test can stop at, inspect or rewrite any hop.
 */
export class Browser {
  private readonly jars = new Map<string, CookieJar>();

  constructor(
    private readonly appOrigin: string,
    private readonly handler: (request: Request) => Promise<Response>,
    /** More in-process servers by origin (e.g. a second deployment); other origins use fetch. */
    private readonly servers: Record<string, (request: Request) => Promise<Response>> = {},
  ) {}

  private jar(host: string): CookieJar {
    let jar = this.jars.get(host);
    if (!jar) this.jars.set(host, (jar = new CookieJar()));
    return jar;
  }

  /** The cookies held for the app's host. */
  appCookies(): Map<string, string> {
    return this.jar(new URL(this.appOrigin).host).values;
  }

  /** `Cookie` header value for the app, e.g. to call it with `fetch`-style helpers. */
  appCookieHeader(): string {
    return [...this.appCookies()].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** One request with this browser's cookies; no redirect following. */
  async send(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const jar = this.jar(target.host);
    const cookie = jar.header();
    if (cookie) headers.set("cookie", cookie);
    const request = new Request(target, { ...init, headers, redirect: "manual" });
    const server = target.origin === this.appOrigin ? this.handler : this.servers[target.origin];
    const response = server ? await server(request) : await fetch(request);
    jar.absorb(response);
    return response;
  }

  /** A JSON POST to the app. */
  post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.send(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  }

  /**
   * Follows redirects from `url` until an answer that is no redirect, or a redirect to an app
   * page outside the auth base path (the end of an OAuth flow). `rewrite` may change each hop.
   */
  async follow(
    url: string,
    options: { rewrite?: (url: URL) => URL | string; stopAt?: (url: URL) => boolean; maxHops?: number } = {},
  ): Promise<{ location: string; response: Response; hops: string[] }> {
    const hops: string[] = [];
    let next = url;
    for (let i = 0; i < (options.maxHops ?? 20); i++) {
      const target = options.rewrite ? String(options.rewrite(new URL(next))) : next;
      hops.push(target);
      const response = await this.send(target);
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || !location)
        return { location: target, response, hops };
      next = new URL(location, target).href;
      const parsed = new URL(next);
      if (options.stopAt?.(parsed)) return { location: next, response, hops };
      if (parsed.origin === this.appOrigin && !parsed.pathname.startsWith("/api/auth")) {
        return { location: next, response, hops };
      }
    }
    throw new Error(`too many redirects from ${url}`);
  }
}
