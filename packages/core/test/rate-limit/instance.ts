import { createAuth, memoryAdapter, type LatchkeyOptions, type Row } from "../../src/index.ts";

export const BASE = "http://localhost:3000";
export const SECRET = "a-rate-limit-test-secret-0123456789-abcdefgh";
/** A documentation address (RFC 5737) used as the default client. */
export const CLIENT_IP = "203.0.113.7";

/** How one test request is sent: the client address (`null`: no header at all) and the rest. */
export interface Send {
  ip?: string | null;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * An instance with rate limiting on (NODE_ENV is "test" under vitest, where it defaults to off)
 * on a memory store, plus helpers that send requests from a given client address.
 */
export function limitedInstance(options: Partial<LatchkeyOptions> = {}) {
  const store: Record<string, Row[]> = {};
  const logs: Array<{ level: string; message: string }> = [];
  const auth = createAuth({
    database: memoryAdapter(store),
    secret: SECRET,
    baseURL: BASE,
    emailAndPassword: { enabled: true },
    logger: { level: "debug", log: (level, message) => logs.push({ level, message }) },
    ...options,
    rateLimit: { enabled: true, ...options.rateLimit },
  });
  const send = (path: string, init: Send = {}): Promise<Response> => {
    const headers: Record<string, string> = { ...init.headers };
    const ip = init.ip === undefined ? CLIENT_IP : init.ip;
    if (ip !== null) headers["x-forwarded-for"] = ip;
    if (init.body !== undefined) headers["content-type"] ??= "application/json";
    return auth.handler(
      new Request(`${BASE}/api/auth${path}`, { method: init.method ?? "GET", headers, body: init.body }),
    );
  };
  /** Statuses of `n` requests sent one after another. */
  const statuses = async (n: number, path: string, init: Send = {}): Promise<number[]> => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await send(path, init)).status);
    return out;
  };
  return { auth, store, logs, send, statuses };
}

/** `n` copies of `value`. */
export const times = <T>(n: number, value: T): T[] => Array.from({ length: n }, () => value);
