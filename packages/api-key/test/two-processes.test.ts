import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createAuth, type Auth } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { redisStorage } from "@latchkey/redis-storage";
import { freshPostgres, stopChild, TEST_BASE_URL, TEST_SECRET, waitForOk } from "@latchkey/test-support";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKey } from "../src/index.ts";
import { PASSWORD } from "./instance.ts";

// Two Latchkey processes (test/support/node-server.ts), each with its own memory, on one
// PostgreSQL database (and, in the second cluster, one Redis holding the keys): 200 requests
// authenticated by one key with rateLimitMax 5, all in flight at once and split between them.

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const entry = fileURLToPath(new URL("./support/node-server.ts", import.meta.url));

interface Node {
  child: ChildProcess;
  origin: () => string | undefined;
  output: () => string;
}

function spawnNode(config: { database: string; redisPrefix?: string }): Node {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=@latchkey/source", entry], {
    cwd: packageDir,
    env: { ...process.env, NODE_ENV: "production", LATCHKEY_API_KEY_NODE: JSON.stringify(config) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    origin: () => {
      const match = /^listening:(\d+)$/m.exec(output);
      return match ? `http://127.0.0.1:${match[1]}` : undefined;
    },
    output: () => output,
  };
}

describe.each([
  ["PostgreSQL", false],
  ["Redis secondary storage", true],
] as const)("two processes, one key with rateLimitMax 5 (%s)", (_name, withRedis) => {
  let database: Awaited<ReturnType<typeof freshPostgres>>;
  let redis: Redis | undefined;
  let storage: ReturnType<typeof redisStorage> | undefined;
  let setup: Auth;
  const nodes: Node[] = [];
  beforeAll(async () => {
    database = await freshPostgres();
    const redisPrefix = withRedis ? `lk-api-key-proc-${randomUUID()}:` : undefined;
    if (redisPrefix) {
      redis = new Redis({ host: "127.0.0.1", port: 6379 });
      storage = redisStorage({ client: redis, keyPrefix: redisPrefix });
    }
    setup = createAuth({
      database: kyselyAdapter(database.pool),
      secret: TEST_SECRET,
      baseURL: TEST_BASE_URL,
      emailAndPassword: { enabled: true },
      logger: { disabled: true },
      ...(storage ? { secondaryStorage: storage } : {}),
      plugins: [apiKey({ enableSessionForAPIKeys: true, ...(storage ? { storage: "secondary-storage" as const } : {}) })],
    });
    await setup.createTables();
    for (let i = 0; i < 2; i++) nodes.push(spawnNode({ database: database.name, ...(redisPrefix ? { redisPrefix } : {}) }));
    for (const node of nodes) {
      await waitForOk(node.child, node.origin, { timeoutMs: 120_000 }).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${node.output()}`);
      });
    }
  }, 180_000);
  afterAll(async () => {
    await Promise.all(nodes.map((node) => stopChild(node.child)));
    await database.pool.end();
    await database.drop();
    await storage?.clear();
    redis?.disconnect();
  });

  it("exactly 5 of 200 parallel requests pass, the rest are 429", async () => {
    const signUp = await setup.handler(
      new Request(`${TEST_BASE_URL}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "procs@example.com", password: PASSWORD, name: "Procs" }),
      }),
    );
    const { user } = (await signUp.json()) as { user: { id: string } };
    const api = setup.api as unknown as Record<string, (a: unknown) => Promise<{ key: string }>>;
    const { key } = await api.createApiKey!({ body: { userId: user.id, rateLimitMax: 5, rateLimitTimeWindow: 60_000 } });
    const statuses = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const response = await fetch(`${nodes[i % 2]!.origin()}/api/auth/get-session`, { headers: { "x-api-key": key } });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect({ ok: statuses.filter((s) => s === 200).length, limited: statuses.filter((s) => s === 429).length }).toEqual({ ok: 5, limited: 195 });
  });
});
