import { afterAll, beforeAll, describe, inject } from "vitest";
import { crossRuntimeSuite } from "./support/cross-runtime.ts";
import { freshPostgres } from "./support/postgres.ts";
import { reportStartup } from "./support/report.ts";
import { startDeno, startNode } from "./support/runtimes.ts";
import { Servers } from "./support/servers.ts";
import { smokeSuite } from "./support/smoke-suite.ts";

// Deno from node_modules/.bin; SQL instance on PostgreSQL through npm's pg, a fresh database.
describe("deno", () => {
  let database: Awaited<ReturnType<typeof freshPostgres>> | undefined;
  const servers = new Servers<"deno" | "node">();
  const memory = (name: "deno" | "node") => (): string => `${servers.url(name)}/memory/api/auth`;

  beforeAll(async () => {
    database = await freshPostgres();
    await servers.start({
      deno: startDeno(inject("bundleDir"), database.url),
      node: startNode(inject("bundleDir")),
    });
    reportStartup("deno", servers.get("deno"));
  });
  afterAll(async () => {
    // Deno first: it holds the connections to the database about to be dropped.
    await servers.stop();
    await database?.drop();
  });

  smokeSuite("memory adapter", memory("deno"), "deno");
  smokeSuite("PostgreSQL (npm:pg)", () => `${servers.url("deno")}/sql/api/auth`, "deno");
  crossRuntimeSuite("deno", memory("deno"), memory("node"));
});
