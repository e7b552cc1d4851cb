import { fileURLToPath } from "node:url";
import { createDemoAuth } from "./auth.js";
import { describeDatabase, loadConfig } from "./config.js";
import { openDatabase } from "./database.js";
import { createOutbox } from "./outbox.js";
import { createDemoApp, listen } from "./server.js";

// Relative SQLite paths resolve against the app folder, not the caller's working directory.
const appDir = fileURLToPath(new URL("..", import.meta.url));
const config = loadConfig(process.env, appDir);
if (!config.secretFromEnv) {
  console.warn(
    "[demo] AUTH_SECRET is not set: using an insecure development secret; set it outside development",
  );
}

const database = await openDatabase(config.database);
const outbox = createOutbox();
const auth = createDemoAuth({
  db: database.db,
  secret: config.secret,
  baseURL: config.baseURL,
  outbox,
  adminEmails: config.adminEmails,
  ...(config.captcha ? { captcha: config.captcha } : {}),
});
await auth.createTables();

const { server, port } = await listen(createDemoApp(auth, outbox, config.captcha), config.port);
console.log(
  `[demo] listening on http://localhost:${port} (base URL ${config.baseURL}), database: ${describeDatabase(config.database)}`,
);

function shutdown(): void {
  server.close();
  void database.close().finally(() => process.exit(0));
}
process.once("SIGINT", shutdown);
process.once("SIGTERM", shutdown);
