import type { UserWorkspaceConfig } from "vitest/config";
import { latchkeyProject } from "../../vitest.shared.ts";

// Builds the one bundle every runtime loads, before any test file starts its runtime.
const project = latchkeyProject("runtime-tests", { globalSetup: ["test/global-setup.ts"] });

// As in adapter-kysely: without "import" among the SSR conditions, pg's require("pg-pool")
// loads the CommonJS build (the test creates and drops PostgreSQL databases with pg).
const config: UserWorkspaceConfig = {
  ...project,
  ssr: {
    ...project.ssr,
    resolve: {
      ...project.ssr?.resolve,
      conditions: ["@latchkey/source", "node"],
      externalConditions: ["node"],
    },
  },
};
export default config;
