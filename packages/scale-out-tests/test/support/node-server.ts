// One Latchkey node: a real HTTP server in its own process, started twice per cluster by
// cluster.ts with `node --import tsx --conditions=@latchkey/source`. Everything it shares with
// its peer lives in PostgreSQL and Redis; nothing in this process is visible to the other.
import { appendFile } from "node:fs/promises";
import { READY_LINE, readNodeConfig } from "./node-config.ts";

// The test process holds our stdin open; when it goes away, even killed outright, so do we.
// Watched before the heavy imports below, which take seconds on a loaded machine.
process.stdin.on("end", () => process.exit(0));
process.stdin.on("error", () => process.exit(0));
process.stdin.resume();

const config = readNodeConfig(process.env);
const [{ serve }, { createAuth }, { Redis }, { default: pg }, { nodeAuthOptions, usesRedis }] =
  await Promise.all([
    import("@hono/node-server"),
    import("@latchkey/core"),
    import("ioredis"),
    import("pg"),
    import("./auth-options.ts"),
  ]);

const pool = new pg.Pool({ connectionString: config.databaseURL, max: 10 });
const redis = usesRedis(config) ? new Redis(config.redisURL, { maxRetriesPerRequest: 1 }) : undefined;

const auth = createAuth(
  nodeAuthOptions(config, {
    pool,
    ...(redis && { redis }),
    // The test-only mail channel: one JSON line per reset mail in a file only the test reads.
    // The token never goes to stdout or stderr, which the test prints when a node misbehaves.
    sendResetPassword: async ({ user, token }) => {
      await appendFile(config.outboxFile, `${JSON.stringify({ email: user.email, token })}\n`);
    },
  }),
);

// The cluster's first node creates the tables; the second gets its first request after that.
if (config.createTables) await auth.createTables();

const server = serve({ fetch: auth.handler, port: 0, hostname: "127.0.0.1" }, (info) => {
  process.stdout.write(`${READY_LINE}${info.port}\n`);
});

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  server.close();
  await Promise.allSettled([pool.end(), redis?.quit()]);
  process.exit(0);
}
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
