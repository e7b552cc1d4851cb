import { afterAll, beforeAll, describe, inject } from "vitest";
import { reportStartup } from "./support/report.ts";
import { startNode } from "./support/runtimes.ts";
import { Servers } from "./support/servers.ts";
import { smokeSuite } from "./support/smoke-suite.ts";
import { freshSqliteFile } from "./support/sqlite-file.ts";

// Node 20 serving the same bundle as the other runtimes; SQL instance on better-sqlite3.
describe("node", () => {
  const sqlite = freshSqliteFile("node");
  const servers = new Servers<"node">();

  beforeAll(async () => {
    await servers.start({ node: startNode(inject("bundleDir"), sqlite.path) });
    reportStartup("node", servers.get("node"));
  });
  afterAll(async () => {
    await servers.stop();
    sqlite.remove();
  });

  smokeSuite("memory adapter", () => `${servers.url("node")}/memory/api/auth`, "node");
  smokeSuite("SQLite (better-sqlite3)", () => `${servers.url("node")}/sql/api/auth`, "node");
});
