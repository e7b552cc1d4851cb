/** One HTTP answer, body parsed as JSON when it is JSON. */
export interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

let nextClient = 0;

/**
 * HTTP calls to one auth instance (`<origin>/<instance>/api/auth`) over the network. Each
 * client sends its own `X-Forwarded-For` address, so rate-limit counters of different tests
 * (and of the built-in 3-per-10-s sign-in rule) never meet.
 */
export class SmokeClient {
  readonly ip: string;

  constructor(readonly base: string) {
    nextClient += 1;
    this.ip = `10.${process.pid % 250}.${Math.floor(nextClient / 250)}.${nextClient % 250}`;
  }

  /** The origin the instance serves, for `Origin` headers. */
  get origin(): string {
    return new URL(this.base).origin;
  }

  async send(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Reply> {
    const res = await fetch(`${this.base}${path}`, {
      ...init,
      headers: { "x-forwarded-for": this.ip, ...init.headers },
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: keep the text.
    }
    return { status: res.status, headers: res.headers, body, text };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Reply> {
    return this.send(path, { headers });
  }

  /**
   * A JSON POST from the instance's own origin, as a browser page on it would send. Node's
   * fetch adds `Sec-Fetch-Mode: cors`, and with Fetch Metadata present core's login CSRF guard
   * requires a trusted Origin even without cookies (the reference does the same).
   */
  post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    return this.send(path, {
      method: "POST",
      headers: { "content-type": "application/json", origin: this.origin, ...headers },
      body: JSON.stringify(body),
    });
  }
}

/** The `name=value` pair of the `Set-Cookie` line for `name`, ready to send back. */
export function cookieFrom(reply: Reply, name: string): string | undefined {
  return reply.headers
    .getSetCookie()
    .find((line) => line.startsWith(`${name}=`))
    ?.split(";")[0];
}

/** A unique address for each test user, lowercase as core stores it. */
export const uniqueEmail = (tag: string): string =>
  `${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
