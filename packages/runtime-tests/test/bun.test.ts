import { afterAll, beforeAll, describe, inject } from "vitest";
import { crossRuntimeSuite } from "./support/cross-runtime.ts";
import { reportStartup } from "./support/report.ts";
import { startBun, startNode } from "./support/runtimes.ts";
import { Servers } from "./support/servers.ts";
import { smokeSuite } from "./support/smoke-suite.ts";
import { freshSqliteFile } from "./support/sqlite-file.ts";

// Bun from node_modules/.bin; SQL instance on its built-in bun:sqlite via kysely-bun-sqlite.
describe("bun", () => {
  const sqlite = freshSqliteFile("bun");
  const servers = new Servers<"bun" | "node">();
  const memory = (name: "bun" | "node") => (): string => `${servers.url(name)}/memory/api/auth`;

  beforeAll(async () => {
    await servers.start({
      bun: startBun(inject("bundleDir"), sqlite.path),
      node: startNode(inject("bundleDir")),
    });
    reportStartup("bun", servers.get("bun"));
  });
  afterAll(async () => {
    await servers.stop();
    sqlite.remove();
  });

  smokeSuite("memory adapter", memory("bun"), "bun");
  smokeSuite("SQLite (bun:sqlite)", () => `${servers.url("bun")}/sql/api/auth`, "bun");
  crossRuntimeSuite("bun", memory("bun"), memory("node"));
});
