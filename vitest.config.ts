import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts", "apps/*/vitest.config.ts", "tools/*/vitest.config.ts"],
    reporters: ["default", "./tools/scripts/summary-reporter.ts"],
  },
});
