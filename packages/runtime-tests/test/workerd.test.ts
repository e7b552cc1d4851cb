import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SmokeClient } from "./support/client.ts";
import { crossRuntimeSuite } from "./support/cross-runtime.ts";
import { reportStartup } from "./support/report.ts";
import { startNode, startWorkerd } from "./support/runtimes.ts";
import { Servers } from "./support/servers.ts";
import { smokeSuite } from "./support/smoke-suite.ts";
import { WORKERD_SOCKETS } from "./support/workerd-config.ts";

// workerd from node_modules/.bin with a generated config; SQL instance on D1, served by the
// D1 worker bundled in workerd itself (a SQLite-backed Durable Object on a local disk).
describe("workerd", () => {
  const servers = new Servers<"workerd" | "node">();
  const base = (socket: string, instance: "memory" | "sql") => (): string =>
    `${servers.url("workerd", socket)}/${instance}/api/auth`;
  const edge = base(WORKERD_SOCKETS.edge, "memory");
  const compat = base(WORKERD_SOCKETS.nodejsCompat, "memory");
  const node = (): string => `${servers.url("node")}/memory/api/auth`;

  beforeAll(async () => {
    await servers.start({ workerd: startWorkerd(inject("bundleDir")), node: startNode(inject("bundleDir")) });
    reportStartup("workerd", servers.get("workerd"));
  });
  afterAll(() => servers.stop());

  it("has no Node API in the plain isolate (noble scrypt) and node:crypto with nodejs_compat", async () => {
    expect((await new SmokeClient(edge()).get("/smoke/ping")).body).toMatchObject({ nativeScrypt: false });
    expect((await new SmokeClient(compat()).get("/smoke/ping")).body).toMatchObject({ nativeScrypt: true });
  });

  smokeSuite("memory adapter, no compatibility flags", edge, "workerd");
  smokeSuite("D1, no compatibility flags", base(WORKERD_SOCKETS.edge, "sql"), "workerd");
  smokeSuite("memory adapter, nodejs_compat", compat, "workerd+nodejs_compat");
  smokeSuite("D1, nodejs_compat", base(WORKERD_SOCKETS.nodejsCompat, "sql"), "workerd+nodejs_compat");
  crossRuntimeSuite("workerd", edge, node);
  crossRuntimeSuite("workerd+nodejs_compat", compat, node);
});
