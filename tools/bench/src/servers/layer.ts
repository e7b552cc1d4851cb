// The cold-start serving floor: what both auth servers start besides their library — the
// @hono/node-server layer of serveBench and the SQLite driver opening the file — answering
// /api/auth/ok with no auth library at all.
import { readServerConfig } from "../server-config.js";
import { openDatabase } from "./drivers.js";
import { serveBench } from "./serve.js";

const config = readServerConfig();
const database = await openDatabase(config.database);

await serveBench({
  handler: async () => Response.json({ ok: true }),
  createSessions: () => Promise.reject(new Error(`no auth library behind ${String(database)}`)),
  secret: config.secret,
  port: config.port,
});
