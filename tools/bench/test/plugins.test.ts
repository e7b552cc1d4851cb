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
      'case "bearer": plugins.push((await import("/repo/packages/bearer/src/index.ts")).bearer(("bearer" in overrides ? overrides["bearer"] : undefined))); break;',
    );
    expect(lazy).toContain(
      'case "no-counterpart": plugins.push((await import("/repo/packages/no-counterpart/src/index.ts")).noCounterpart(("no-counterpart" in overrides ? overrides["no-counterpart"] : undefined))); break;',
    );
  });

  it("takes a scenario's options for a plugin id instead of FACTORY_OPTIONS, on both sides", async () => {
    for (const name of ["bench:latchkey-plugins", "bench:reference-plugins"] as const) {
      const source = modules[name] ?? "";
      expect(source).toContain("export async function loadPlugins(ids, overrides = {})");
      // The generated module runs: an override reaches the factory, and FACTORY_OPTIONS otherwise.
      const received: unknown[] = [];
      const run = new Function(
        "record",
        source
          .replace("export async function", "return async function")
          .replace(/\(await import\([^)]*\)\)\.\w+\(/g, "record("),
      ) as (record: (options: unknown) => unknown) => (ids: string[], overrides?: Record<string, unknown>) => Promise<unknown[]>;
      const load = run((options) => (received.push(options), {}));
      await load(["bearer"], { bearer: { x: 1 } });
      await load(["bearer"]);
      expect(received).toEqual([{ x: 1 }, undefined]);
    }
  });

  it("gives the reference only the plugins it has a counterpart for", () => {
    expect(modules["bench:reference-plugins"]).toContain('(await import("better-auth/plugins")).bearer(("bearer" in overrides');
    expect(modules["bench:reference-plugins"]).not.toContain("no-counterpart");
    expect(modules["bench:reference-all-plugins"]).toContain(
      'import { bearer as plugin0 } from "better-auth/plugins";',
    );
    expect(modules["bench:latchkey-all-plugins"]).toContain("return [plugin0(), plugin1()];");
  });
});
