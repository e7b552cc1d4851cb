import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

/** A demo server running as a real child process, as `pnpm start` runs it. */
export interface DemoProcess {
  baseURL: string;
  /** Everything the child printed so far, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

const appDir = fileURLToPath(new URL("..", import.meta.url));

/** Asks the OS for a free loopback port; the tiny race until the child binds it is acceptable in tests. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, "127.0.0.1");
  await once(probe, "listening");
  const address = probe.address();
  probe.close();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return address.port;
}

/** Starts `src/main.ts` with `env` on a free port and resolves once `/api/auth/ok` answers. */
export async function startDemo(env: Record<string, string>): Promise<DemoProcess> {
  const port = await freePort();
  const baseURL = `http://localhost:${port}`;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, PORT: String(port) };
  delete childEnv.BASE_URL;
  // `node --import tsx` rather than the tsx CLI: one process, so the kill reaches the server.
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=@latchkey/source", "src/main.ts"], {
    cwd: appDir,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const demo: DemoProcess = { baseURL, output: () => output, stop: () => stop(child) };
  try {
    await waitForOk(baseURL, child, 60_000);
  } catch (error) {
    await demo.stop();
    throw new Error(`${(error as Error).message}\n--- demo output ---\n${output}`);
  }
  return demo;
}

async function waitForOk(baseURL: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`demo exited early (${child.exitCode ?? child.signalCode})`);
    }
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

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
