import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freePort, stopChild, waitForOk } from "@latchkey/test-support";

export { freePort };

/** A demo server running as a real child process, as `pnpm start` runs it. */
export interface DemoProcess {
  baseURL: string;
  /** Everything the child printed so far, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

const appDir = fileURLToPath(new URL("..", import.meta.url));

/**
 * Starts `src/main.ts` with `env` on `env.PORT`, else a free port, and resolves once
 * `/api/auth/ok` answers.
 */
export async function startDemo(env: Record<string, string>): Promise<DemoProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
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
  const demo: DemoProcess = { baseURL, output: () => output, stop: () => stopChild(child) };
  try {
    await waitForOk(child, () => baseURL, { pollMs: 200, timeoutMs: 60_000 });
  } catch (error) {
    await demo.stop();
    throw new Error(`${(error as Error).message}\n--- demo output ---\n${output}`);
  }
  return demo;
}
