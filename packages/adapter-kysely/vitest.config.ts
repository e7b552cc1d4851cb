import type { UserWorkspaceConfig } from "vitest/config";
import { latchkeyProject } from "../../vitest.shared.ts";

const project = latchkeyProject("adapter-kysely");

// Vitest hands the SSR conditions to the worker as `node --conditions`, and Node applies them
// to require() too: with "import" among them, pg's require("pg-pool") loads pg-pool's ESM
// build and `class extends Pool` fails. Node adds "import"/"require" by itself anyway.
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
