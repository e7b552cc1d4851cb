import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

/** Which implementation a server process runs. */
export type Implementation = "latchkey" | "reference";

/** One auth server running in its own process on loopback. */
export interface ChildServer {
  implementation: Implementation;
  baseURL: string;
  /** Everything the process printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

const benchDir = fileURLToPath(new URL("..", import.meta.url));

/** Starts `src/servers/<implementation>.ts` on a free port and resolves once `/api/auth/ok` answers. */
export async function startServer(
  implementation: Implementation,
  dbFile: string,
  secret: string,
): Promise<ChildServer> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  // Its own process, so the load generator and the server never share an event loop.
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=@latchkey/source", `src/servers/${implementation}.ts`],
    {
      cwd: benchDir,
      env: {
        ...process.env,
        NODE_ENV: "production",
        BENCH_PORT: String(port),
        BENCH_DB_FILE: dbFile,
        BENCH_SECRET: secret,
        BENCH_BASE_URL: baseURL,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const server: ChildServer = { implementation, baseURL, output: () => output, stop: () => stopChild(child) };
  try {
    await waitForOk(baseURL, child, 60_000);
  } catch (error) {
    await server.stop();
    throw new Error(
      `${implementation} server did not start: ${(error as Error).message}\n--- its output ---\n${output}`,
    );
  }
  return server;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, "127.0.0.1");
  await once(probe, "listening");
  const address = probe.address();
  probe.close();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return address.port;
}

async function waitForOk(baseURL: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`exited (${child.exitCode ?? child.signalCode})`);
    try {
      const res = await fetch(`${baseURL}/api/auth/ok`);
      const body = await res.text();
      if (res.status === 200 && body.replace(/\s/g, "") === '{"ok":true}') return;
      last = `${res.status} ${body.slice(0, 200)}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`GET /api/auth/ok did not answer {"ok":true} within ${timeoutMs} ms (last: ${last})`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
