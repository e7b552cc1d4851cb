import { defineProject, type UserWorkspaceConfig } from "vitest/config";

/** Shared vitest settings: workspace packages resolve to their TypeScript sources. */
export function latchkeyProject(name: string, extra: UserWorkspaceConfig["test"] = {}): UserWorkspaceConfig {
  return defineProject({
    resolve: { conditions: ["@latchkey/source", "module", "node", "import", "default"] },
    // No "import" condition for SSR: Node applies it to require() too, and pg then fails to load its pool.
    ssr: { resolve: { conditions: ["@latchkey/source", "node", "default"] } },
    test: {
      name,
      environment: "node",
      include: ["test/**/*.test.ts", "src/**/*.test.ts"],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // A worker runs its files one after another in one module graph, so core, the adapter and
      // the drivers load once per worker instead of once per file (most of the suite's time was
      // imports). Every file starts its own servers, databases and instances and closes them in
      // its own hooks; a file that stubs environment or globals restores them in afterEach.
      isolate: false,
      ...extra,
    },
  });
}
