import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import type { Readable } from "node:stream";

/** A runtime serving the smoke bundle, as the tests see it. */
export interface RunningServer {
  /** Each socket the process announced, by name (`main` for single-socket launchers). */
  urls: Record<string, string>;
  /** Spawn to listening, in milliseconds. */
  startupMs: number;
  /** Everything it printed so far, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/** How a process says it is ready: a `{"listening":port}` line on stdout, or workerd's control fd. */
type Announcement = "stdout" | "control-fd";

export interface StartOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  announcement: Announcement;
  /** Sockets to wait for (workerd announces one line per socket). @default ["main"] */
  sockets?: string[];
  /** Generous: a loaded 2-core CI machine starts Deno or workerd much slower than the usual 0.2-0.5 s. @default 30_000 */
  timeoutMs?: number;
}

/** The port lines a process announces: `{"listening":N}` (launchers) or workerd's listen events. */
function parsePort(line: string): { socket: string; port: number } | null {
  try {
    const msg = JSON.parse(line) as {
      listening?: unknown;
      event?: unknown;
      socket?: unknown;
      port?: unknown;
    };
    if (typeof msg.listening === "number") return { socket: "main", port: msg.listening };
    if (msg.event === "listen" && typeof msg.socket === "string" && typeof msg.port === "number") {
      return { socket: msg.socket, port: msg.port };
    }
  } catch {
    // Not JSON: ordinary log output.
  }
  return null;
}

function onLines(stream: Readable, each: (line: string) => void): void {
  let rest = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    lines.forEach(each);
  });
}

/** Sends SIGTERM to the whole process group (wrappers such as .bin shims included), then SIGKILL. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (name: NodeJS.Signals): void => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // Already gone.
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 3_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Spawns a runtime as a real child process in its own process group and resolves once every
 * expected socket is listening. Rejects, with the process's output, if it exits or stays
 * silent: a missing or broken runtime fails the test, it never skips it.
 */
export function startServer(options: StartOptions): Promise<RunningServer> {
  const sockets = options.sockets ?? ["main"];
  const started = performance.now();
  const stdio: StdioOptions =
    options.announcement === "control-fd" ? ["pipe", "pipe", "pipe", "pipe"] : ["pipe", "pipe", "pipe"];
  // detached: its own process group, so stop() also reaches a binary started by a shim script.
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio,
    detached: true,
  });
  let log = "";
  const urls: Record<string, string> = {};
  const output = (): string => log;
  const stop = (): Promise<void> => stopGroup(child);

  return new Promise((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const fail = (reason: string): void => {
      clearTimeout(timer);
      void stop().then(() =>
        reject(new Error(`${options.command} ${options.args.join(" ")}: ${reason}\n--- output ---\n${log}`)),
      );
    };
    const timer = setTimeout(() => fail(`not listening after ${timeoutMs} ms`), timeoutMs);
    const seen = (line: string): void => {
      const found = parsePort(line.trim());
      if (!found) return;
      urls[found.socket] = `http://127.0.0.1:${found.port}`;
      if (sockets.every((s) => urls[s])) {
        clearTimeout(timer);
        resolve({ urls, startupMs: Math.round(performance.now() - started), output, stop });
      }
    };
    const record = (line: string): void => {
      log += `${line}\n`;
    };
    onLines(child.stdout!, (line) => (record(line), options.announcement === "stdout" && seen(line)));
    onLines(child.stderr!, record);
    if (options.announcement === "control-fd") onLines(child.stdio[3] as Readable, seen);
    child.once("error", (error) => fail(`could not start: ${error.message}`));
    child.once("exit", (code, signal) => fail(`exited early (${code ?? signal})`));
  });
}
