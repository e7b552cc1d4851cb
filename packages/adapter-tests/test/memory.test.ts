import { memoryAdapter } from "@latchkey/core";
import { runAdapterConformance } from "../src/index.js";

// The memory adapter cannot create or inspect tables: its schema-management cases are skipped.
runAdapterConformance("memory", async () => ({ factory: memoryAdapter(), teardown: async () => {} }), {
  schemaManagement: false,
});
