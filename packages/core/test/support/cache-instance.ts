import {
  base64UrlDecode,
  createAuth,
  memoryAdapter,
  symmetricDecodeJWT,
  utf8Decode,
  type Adapter,
  type AdapterFactory,
  type LatchkeyOptions,
  type Row,
} from "../../src/index.ts";
import { BASE, SECRET } from "./instance.ts";

export const TOKEN_COOKIE = "better-auth.session_token";
export const DATA_COOKIE = "better-auth.session_data";
export const DONT_REMEMBER_COOKIE = "better-auth.dont_remember";

/** Counts the storage reads made through `adapter` (a real memory adapter, only observed). */
function countingReads(factory: AdapterFactory, reads: { count: number }): AdapterFactory {
  const READS = new Set<PropertyKey>(["findOne", "findMany", "count", "findSessionWithUser"]);
  return (init) => {
    const adapter = factory(init);
    return new Proxy(adapter, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof value !== "function" || !READS.has(key)) return value;
        return (...args: unknown[]) => {
          reads.count++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as Adapter;
  };
}

/** A core instance on a memory store whose reads are counted, with request helpers. */
export function cacheInstance(options: Partial<LatchkeyOptions> = {}, store: Record<string, Row[]> = {}) {
  const reads = { count: 0 };
  const auth = createAuth({
    database: countingReads(memoryAdapter(store), reads),
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
      body: JSON.stringify(body),
    });
  const getSession = (cookie: string, query = "") => request(`/get-session${query}`, { headers: { cookie } });
  /** Deletes every stored session row: from here on only a cache can answer. */
  const dropSessions = (): void => {
    store.session = [];
  };
  return { auth, store, reads, request, post, getSession, dropSessions };
}

/** A parsed Set-Cookie line. */
export interface SetCookie {
  name: string;
  value: string;
  line: string;
  maxAge: number | undefined;
}

/** Every Set-Cookie line of a response, in order. */
export function setCookies(res: Response): SetCookie[] {
  return res.headers.getSetCookie().map((line) => {
    const pair = line.split(";")[0]!;
    const eq = pair.indexOf("=");
    const maxAge = /; Max-Age=(\d+)/.exec(line)?.[1];
    return {
      name: pair.slice(0, eq),
      value: pair.slice(eq + 1),
      line,
      maxAge: maxAge === undefined ? undefined : Number(maxAge),
    };
  });
}

/** A browser-like jar for one host: keeps what Set-Cookie sends, drops what it expires. */
export class Jar {
  readonly cookies = new Map<string, string>();

  store(res: Response): this {
    for (const c of setCookies(res)) {
      if (c.value === "" || c.maxAge === 0) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return this;
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  /** The cookie header with `name` replaced (or added). */
  with(name: string, value: string): string {
    const copy = new Map(this.cookies).set(name, value);
    return [...copy].map(([n, v]) => `${n}=${v}`).join("; ");
  }

  without(name: string): string {
    return [...this.cookies]
      .filter(([n]) => n !== name)
      .map(([n, v]) => `${n}=${v}`)
      .join("; ");
  }
}

/** The readable content of a cache cookie value, whatever the strategy. */
export async function readCache(strategy: string, value: string): Promise<Record<string, unknown>> {
  if (strategy === "compact")
    return JSON.parse(utf8Decode(base64UrlDecode(value))) as Record<string, unknown>;
  if (strategy === "jwt")
    return JSON.parse(utf8Decode(base64UrlDecode(value.split(".")[1]!))) as Record<string, unknown>;
  const claims = await symmetricDecodeJWT(value, SECRET, "better-auth-session");
  if (!claims) throw new Error("jwe cache does not decrypt");
  return claims;
}

/** The session token inside a cache cookie value. */
export async function cachedToken(strategy: string, value: string): Promise<unknown> {
  const content = await readCache(strategy, value);
  const data = (strategy === "compact" ? content.session : content) as { session: { token: unknown } };
  return data.session.token;
}
