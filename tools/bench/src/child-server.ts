import { spawn } from "node:child_process";
import { freePort, stopChild, waitForOk } from "@latchkey/test-support";
import { BENCH_DIR } from "./build.js";
import type { ServerStats } from "./servers/serve.js";
import type { Implementation, ServerConfig } from "./server-config.js";

/** What the bench decides about a server; the port, secret and base URL are filled in at start. */
export type ServerSettings = Omit<ServerConfig, "port" | "baseURL">;

/**
 * A server the bench can spawn: either implementation, or one of the cold-start floors — bare
 * Node (`floor`), and the serving layer with the driver but no auth library (`layer`).
 */
export type ServerName = Implementation | "floor" | "layer";

/** One auth server running in its own process on loopback. */
export interface ChildServer {
  implementation: ServerName;
  baseURL: string;
  /** Milliseconds from spawn to the first `200 {"ok":true}` on `/api/auth/ok`. */
  startMs: number;
  /** The server's own memory and event-loop figures; `reset` restarts the loop histogram, `gc` collects first. */
  stats(options?: { reset?: boolean; gc?: boolean }): Promise<ServerStats>;
  /**
   * Resolves once the server has answered every request it began. autocannon stops without
   * waiting for answers in flight, and the server still finishes them (a sign-in's scrypt runs
   * on): without this, the next measured window would start behind that backlog.
   */
  settle(): Promise<void>;
  /** Everything the process printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/** Spawns the bundled server `entry` (see build.ts) on a free port; resolves once `/api/auth/ok` answers. */
export async function startServer(
  implementation: ServerName,
  entry: string,
  settings: ServerSettings,
  { pollMs = 100, timeoutMs = 60_000 }: { pollMs?: number; timeoutMs?: number } = {},
): Promise<ChildServer> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const config: ServerConfig = { ...settings, port, baseURL };
  const started = performance.now();
  // Its own process, so the load generator and the server never share an event loop.
  // --expose-gc lets the memory figure also read the heap after a full collection; it changes nothing else.
  const child = spawn(process.execPath, ["--expose-gc", entry], {
    cwd: BENCH_DIR,
    env: { ...process.env, NODE_ENV: "production", BENCH_CONFIG: JSON.stringify(config) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const server: ChildServer = {
    implementation,
    baseURL,
    startMs: Number.NaN,
    async stats({ reset = false, gc = false } = {}) {
      const query = [reset ? "reset" : "", gc ? "gc" : ""].filter(Boolean).join("&");
      const res = await fetch(`${baseURL}/__bench/stats${query ? `?${query}` : ""}`);
      return (await res.json()) as ServerStats;
    },
    async settle() {
      const deadline = performance.now() + 60_000;
      while ((await server.stats()).inFlight > 0) {
        if (performance.now() > deadline)
          throw new Error(`${implementation}: requests still in flight after 60 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    output: () => output,
    stop: () => stopChild(child),
  };
  try {
    await waitForOk(child, () => baseURL, { pollMs, timeoutMs });
    server.startMs = performance.now() - started;
  } catch (error) {
    await server.stop();
    throw new Error(
      `${implementation} server did not start: ${(error as Error).message}\n--- its output ---\n${output}`,
    );
  }
  return server;
}
