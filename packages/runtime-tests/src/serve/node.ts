// Node launcher: the smoke bundle behind @hono/node-server, the SQL instance on better-sqlite3.
import { serve } from "@hono/node-server";
import Database from "better-sqlite3";
import type * as Smoke from "../smoke-app.js";
import { announce } from "./announce.js";

const [sqlitePath] = process.argv.slice(2);
// The bundle sits next to this file once built; the same file every runtime loads.
const { createSmokeHandler } = (await import(new URL("./smoke.mjs", import.meta.url).href)) as typeof Smoke;
const fetch = createSmokeHandler({ runtime: "node", sql: sqlitePath ? new Database(sqlitePath) : undefined });

serve({ fetch, hostname: "127.0.0.1", port: 0 }, (info) => console.log(announce(info.port)));
// The test owns this process: when its pipe closes (test ended or crashed), exit.
process.stdin.on("end", () => process.exit(0)).resume();
