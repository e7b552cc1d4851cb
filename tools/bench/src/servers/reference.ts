// The reference under load: better-auth@1.7.6 with the same options, tables made by its own migrator.
import { betterAuth, type BetterAuthOptions } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import Database from "better-sqlite3";
import { readServerEnv, serveHandler } from "./serve.js";

const env = readServerEnv();
const options = {
  database: new Database(env.dbFile),
  secret: env.secret,
  baseURL: env.baseURL,
  emailAndPassword: { enabled: true },
  rateLimit: { enabled: false },
} satisfies BetterAuthOptions;
const { runMigrations } = await getMigrations(options);
await runMigrations();
const auth = betterAuth(options);
await serveHandler((request) => auth.handler(request), env.port);
