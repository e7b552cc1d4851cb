import { serve } from "@hono/node-server";

/** What the bench passes to each server process through its environment. */
export interface ServerEnv {
  port: number;
  dbFile: string;
  secret: string;
  baseURL: string;
}

/** Reads the environment the bench sets for a server process; fails loudly when run by hand without it. */
export function readServerEnv(env: NodeJS.ProcessEnv = process.env): ServerEnv {
  const { BENCH_PORT, BENCH_DB_FILE, BENCH_SECRET, BENCH_BASE_URL } = env;
  if (!BENCH_PORT || !BENCH_DB_FILE || !BENCH_SECRET || !BENCH_BASE_URL) {
    throw new TypeError(
      "BENCH_PORT, BENCH_DB_FILE, BENCH_SECRET and BENCH_BASE_URL must be set (the bench sets them)",
    );
  }
  return { port: Number(BENCH_PORT), dbFile: BENCH_DB_FILE, secret: BENCH_SECRET, baseURL: BENCH_BASE_URL };
}

/**
 * Serves a web-standard handler on loopback. Both implementations go through this same
 * @hono/node-server layer, so the HTTP plumbing costs them the same and only auth differs.
 */
export function serveHandler(handler: (request: Request) => Promise<Response>, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: (request: Request) => handler(request), port, hostname: "127.0.0.1" }, () =>
      resolve(),
    );
    server.once("error", reject);
  });
}
