import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      "packages/*/vitest.config.ts",
      "packages/compat-tests/vitest.isolated.config.ts",
      "apps/*/vitest.config.ts",
      "tools/*/vitest.config.ts",
    ],
    // One test file per core. vitest's default for a run is cores - 1, a single worker on the
    // 2-core CI machine, while most files wait on databases, Redis and child processes.
    maxWorkers: 2,
    reporters: ["default", "./tools/scripts/summary-reporter.ts"],
  },
});
