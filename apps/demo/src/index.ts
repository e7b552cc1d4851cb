// The demo's building blocks, for tools that start it in-process (tools/bench, tests).
export {
  describeDatabase,
  loadConfig,
  parseDatabaseUrl,
  type DatabaseConfig,
  type DemoConfig,
} from "./config.js";
export { openDatabase, type DemoDatabase, type DemoTables } from "./database.js";
export { createDemoAuth, type DemoAuth, type DemoAuthOptions } from "./auth.js";
export { createOutbox, type Outbox, type OutboxMail } from "./outbox.js";
export { createDemoApp, listen, type AuthHandler } from "./server.js";
