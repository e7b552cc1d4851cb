// Bun launcher: Bun.serve, the SQL instance on the built-in bun:sqlite through kysely-bun-sqlite.
import { Database } from "bun:sqlite";
import { BunSqliteDialect } from "kysely-bun-sqlite";
import type * as Smoke from "../smoke-app.js";
import { announce } from "./announce.js";

/** The part of the `Bun` global used here (no bun-types in this workspace). */
declare const Bun: {
  serve(options: { hostname: string; port: number; fetch: (request: Request) => Promise<Response> }): {
    port: number;
  };
};

const [sqlitePath] = process.argv.slice(2);
const { createSmokeHandler } = (await import(new URL("./smoke.mjs", import.meta.url).href)) as typeof Smoke;
const sql = sqlitePath ? new BunSqliteDialect({ database: new Database(sqlitePath) }) : undefined;
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: createSmokeHandler({ runtime: "bun", sql }),
});

console.log(announce(server.port));
// The test owns this process: when its pipe closes (test ended or crashed), exit.
process.stdin.on("end", () => process.exit(0)).resume();
