import { describe, expect, it } from "vitest";
import { discoverPlugins, virtualModules, type PluginDiscovery } from "../src/plugins.js";

describe("discoverPlugins", () => {
  it("finds the plugin packages of this repository from their nx tag and factory", async () => {
    const discovery = await discoverPlugins();
    expect(discovery.plugins).toContainEqual(
      expect.objectContaining({ id: "bearer", packageName: "@latchkey/bearer", factory: "bearer" }),
    );
    // @latchkey/client carries the tag but is not a server plugin.
    expect(discovery.skipped).toContainEqual(expect.objectContaining({ packageName: "@latchkey/client" }));
  });
});

describe("virtualModules", () => {
  const discovery: PluginDiscovery = {
    plugins: [
      {
        id: "bearer",
        packageName: "@latchkey/bearer",
        entry: "/repo/packages/bearer/src/index.ts",
        factory: "bearer",
      },
      {
        // A plugin the reference has no counterpart for (none exists yet: a made-up one).
        id: "no-counterpart",
        packageName: "@latchkey/no-counterpart",
        entry: "/repo/packages/no-counterpart/src/index.ts",
        factory: "noCounterpart",
      },
    ],
    skipped: [],
    unmapped: ["no-counterpart"],
  };
  const modules = virtualModules(discovery);

  it("loads Latchkey plugins lazily by id, from their source entries", () => {
    const lazy = modules["bench:latchkey-plugins"] ?? "";
    expect(lazy).toContain(
      'case "bearer": plugins.push((await import("/repo/packages/bearer/src/index.ts")).bearer()); break;',
    );
    expect(lazy).toContain(
      'case "no-counterpart": plugins.push((await import("/repo/packages/no-counterpart/src/index.ts")).noCounterpart()); break;',
    );
  });

  it("gives the reference only the plugins it has a counterpart for", () => {
    expect(modules["bench:reference-plugins"]).toContain('(await import("better-auth/plugins")).bearer()');
    expect(modules["bench:reference-plugins"]).not.toContain("no-counterpart");
    expect(modules["bench:reference-all-plugins"]).toContain(
      'import { bearer as plugin0 } from "better-auth/plugins";',
    );
    expect(modules["bench:latchkey-all-plugins"]).toContain("return [plugin0(), plugin1()];");
  });
});
