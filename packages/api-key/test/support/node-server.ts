// One Latchkey node for the two-process test: a real HTTP server in its own process, on the
// PostgreSQL database (and Redis prefix) named in LATCHKEY_API_KEY_NODE. Started by
// two-processes.test.ts with `node --import tsx --conditions=@latchkey/source`.
process.stdin.on("end", () => process.exit(0));
process.stdin.on("error", () => process.exit(0));
process.stdin.resume();

interface NodeConfig {
  database: string;
  redisPrefix?: string;
}
const config = JSON.parse(process.env.LATCHKEY_API_KEY_NODE ?? "{}") as NodeConfig;

const [{ serve }, { createAuth }, { kyselyAdapter }, { apiKey }, { redisStorage }, { Redis }, { default: pg }] = await Promise.all([
  import("@hono/node-server"),
  import("@latchkey/core"),
  import("@latchkey/adapter-kysely"),
  import("../../src/index.ts"),
  import("@latchkey/redis-storage"),
  import("ioredis"),
  import("pg"),
]);

const pool = new pg.Pool({ host: "127.0.0.1", port: 5432, user: "postgres", database: config.database, max: 10 });
const redis = config.redisPrefix ? new Redis({ host: "127.0.0.1", port: 6379, maxRetriesPerRequest: 1 }) : undefined;
const auth = createAuth({
  database: kyselyAdapter(pool),
  secret: "latchkey-test-kit-secret-that-is-long-enough-0123456789",
  baseURL: "http://localhost:3000",
  emailAndPassword: { enabled: true },
  logger: { disabled: true },
  ...(redis ? { secondaryStorage: redisStorage({ client: redis, keyPrefix: config.redisPrefix }) } : {}),
  plugins: [apiKey({ enableSessionForAPIKeys: true, ...(redis ? { storage: "secondary-storage" as const } : {}) })],
});

const server = serve({ fetch: auth.handler, port: 0, hostname: "127.0.0.1" }, (info) => {
  process.stdout.write(`listening:${info.port}\n`);
});
async function stop(): Promise<void> {
  server.close();
  await Promise.allSettled([pool.end(), redis?.quit()]);
  process.exit(0);
}
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
