// Deno launcher: Deno.serve, the SQL instance on PostgreSQL through npm's pg (from node_modules).
import pg from "pg";
import type * as Smoke from "../smoke-app.js";
import { announce } from "./announce.js";

/** The part of the `Deno` global used here (no Deno types in this workspace). */
declare const Deno: {
  args: string[];
  serve(
    options: { hostname: string; port: number; onListen(addr: { port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
  stdin: { readable: ReadableStream<Uint8Array> };
  exit(code: number): never;
};

const [postgresURL] = Deno.args;
const { createSmokeHandler } = (await import(new URL("./smoke.mjs", import.meta.url).href)) as typeof Smoke;
const sql = postgresURL ? new pg.Pool({ connectionString: postgresURL, max: 4 }) : undefined;
const handler = createSmokeHandler({ runtime: "deno", sql });

Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(announce(port)) }, handler);
// The test owns this process: when its pipe closes (test ended or crashed), exit.
void (async () => {
  const reader = Deno.stdin.readable.getReader();
  while (!(await reader.read()).done);
  Deno.exit(0);
})();
