// The demo's building blocks, for tools that start it in-process (tools/bench, tests).
export {
  describeDatabase,
  loadConfig,
  parseDatabaseUrl,
  type DatabaseConfig,
  type DemoConfig,
} from "./config.js";
export { openDatabase, type DemoDatabase, type DemoTables } from "./database.js";
export { renderPage } from "./page.js";
export { createDemoApp, listen, type AuthHandler } from "./server.js";
