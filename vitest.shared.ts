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
      ...extra,
    },
  });
}
