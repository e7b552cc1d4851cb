import { serve } from "@hono/node-server";
import { createHmac } from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";

/** What a server entry hands to `serveBench`: its auth handler and a way to mint sessions cheaply. */
export interface BenchApp {
  handler: (request: Request) => Promise<Response>;
  /** Creates `count` sessions for the user with `email` through the library's own internal adapter; returns their tokens. */
  createSessions: (email: string, count: number) => Promise<string[]>;
  secret: string;
  port: number;
}

/** What `GET /__bench/stats` answers: the server's own view of its memory and event loop. */
export interface ServerStats {
  /** Auth requests begun and not yet answered (a client that gave up does not end its request). */
  inFlight: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** Event-loop delay since start or the last `?reset`, in ms (perf_hooks, 10 ms resolution). */
  loopDelay: { mean: number; p50: number; p99: number; max: number };
}

const BENCH_PREFIX = "/__bench/";

/**
 * Serves the auth handler on loopback through @hono/node-server, the same layer for both
 * implementations, plus two bench-only routes under `/__bench/` (never under the auth base
 * path): `stats` for memory and event-loop delay, and `sessions` to mint sessions without a
 * password hash each (the memory figure needs a thousand of them).
 */
export function serveBench(app: BenchApp): Promise<void> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let inFlight = 0;
  // The same wrapper for both implementations: one counter and one await per request.
  const auth = async (request: Request): Promise<Response> => {
    inFlight++;
    try {
      return await app.handler(request);
    } finally {
      inFlight--;
    }
  };
  const handle = (request: Request): Promise<Response> | Response => {
    const { url } = request;
    // A substring test costs both implementations the same few nanoseconds per request.
    if (!url.includes(BENCH_PREFIX)) return auth(request);
    const path = new URL(url).pathname;
    if (path === "/__bench/stats") {
      const params = new URL(url).searchParams;
      // Retained memory: only with --expose-gc, which the bench passes to every server.
      const gc = (globalThis as { gc?: () => void }).gc;
      if (params.has("gc") && gc) {
        gc();
        gc();
      }
      const stats: ServerStats = {
        inFlight,
        rssBytes: process.memoryUsage.rss(),
        heapUsedBytes: process.memoryUsage().heapUsed,
        loopDelay: {
          mean: loop.mean / 1e6,
          p50: loop.percentile(50) / 1e6,
          p99: loop.percentile(99) / 1e6,
          max: loop.max / 1e6,
        },
      };
      if (params.has("reset")) loop.reset();
      return Response.json(stats);
    }
    if (path === "/__bench/sessions" && request.method === "POST") return mintSessions(app, request);
    return auth(request);
  };
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: handle, port: app.port, hostname: "127.0.0.1" }, () => resolve());
    server.once("error", reject);
  });
}

async function mintSessions(app: BenchApp, request: Request): Promise<Response> {
  const { email, count } = (await request.json()) as { email: string; count: number };
  const tokens = await app.createSessions(email, count);
  // The session cookie both libraries read: `<token>.<base64 HMAC-SHA256(secret, token)>`, URI-encoded.
  const cookies = tokens.map(
    (token) =>
      `better-auth.session_token=${encodeURIComponent(`${token}.${createHmac("sha256", app.secret).update(token).digest("base64")}`)}`,
  );
  return Response.json({ cookies });
}
