import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { stopChild, waitForOk } from "@latchkey/test-support";
import { NODE_CONFIG_ENV, READY_LINE, type NodeConfig } from "./node-config.ts";

/** Where a node is reached: its name in the cluster ("A", "B") and `http://127.0.0.1:<port>`. */
export interface NodeAddress {
  name: string;
  origin: string;
}

/** One node process. */
export interface NodeProcess {
  /** Its origin is set once `ready()` resolves. */
  address: NodeAddress;
  /** Resolves once it listens and `GET /api/auth/ok` answers `{"ok":true}`; stops it and rejects otherwise. */
  ready(timeoutMs?: number): Promise<void>;
  /** Everything the process printed, for failure messages. */
  output(): string;
  /** Whether it exited before `stop()` was called. */
  crashed(): boolean;
  stop(): Promise<void>;
}

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const entry = fileURLToPath(new URL("./node-server.ts", import.meta.url));
const live = new Set<ChildProcess>();

// Last resort when this process exits without its teardown (a crash, a kill): no node outlives
// it. The nodes also exit on their own when their stdin, held by this process, closes.
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

/**
 * Starts node-server.ts with `config` in its own process. It listens on a port the OS chooses
 * and prints it on stdout, so no two nodes can race for one port.
 */
export function spawnNode(name: string, config: NodeConfig): NodeProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=@latchkey/source", entry], {
    cwd: packageDir,
    env: { ...process.env, NODE_ENV: "production", [NODE_CONFIG_ENV]: JSON.stringify(config) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  live.add(child);
  child.once("exit", () => live.delete(child));
  let output = "";
  let port: number | undefined;
  let stopping = false;
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    const match = new RegExp(`^${READY_LINE}(\\d+)$`, "m").exec(output);
    if (match) port = Number(match[1]);
  });
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const node: NodeProcess = {
    address: { name, origin: "" },
    async ready(timeoutMs = 120_000) {
      try {
        const origin = () => (port === undefined ? undefined : `http://127.0.0.1:${port}`);
        await waitForOk(child, origin, { pollMs: 50, timeoutMs });
        node.address.origin = origin()!;
      } catch (error) {
        await node.stop();
        throw new Error(
          `node ${name} did not start: ${(error as Error).message}\n--- its output ---\n${output}`,
        );
      }
    },
    output: () => output,
    crashed: () => !stopping && (child.exitCode !== null || child.signalCode !== null),
    stop: () => {
      stopping = true;
      return stopChild(child);
    },
  };
  return node;
}
