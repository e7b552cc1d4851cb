// Latchkey under load: createAuth on a raw better-sqlite3 file, as the reference server is set up.
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { createAuth } from "@latchkey/core";
import Database from "better-sqlite3";
import { readServerEnv, serveHandler } from "./serve.js";

const env = readServerEnv();
const auth = createAuth({
  database: kyselyAdapter(new Database(env.dbFile)),
  secret: env.secret,
  baseURL: env.baseURL,
  emailAndPassword: { enabled: true },
  rateLimit: { enabled: false },
});
await auth.createTables();
await serveHandler((request) => auth.handler(request), env.port);
