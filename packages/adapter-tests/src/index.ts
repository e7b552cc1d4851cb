import { afterAll, beforeAll, beforeEach, describe } from "vitest";
import { atomicCases } from "./cases/atomic.js";
import { crudCases } from "./cases/crud.js";
import { findPageCases } from "./cases/find-page.js";
import { hostileTextCases } from "./cases/hostile-text.js";
import { hostileValueCases } from "./cases/hostile-values.js";
import { onDeleteCases } from "./cases/on-delete.js";
import { schemaManagementCases } from "./cases/schema-management.js";
import { sessionJoinCases } from "./cases/session-join.js";
import { transactionCases } from "./cases/transaction.js";
import { valueCases } from "./cases/values.js";
import { whereCases } from "./cases/where.js";
import { Harness, type ConformanceSetup } from "./harness.js";

export type { ConformanceSetup } from "./harness.js";
export { baseSchema, itemSchema, singleModel } from "./schema.js";

/** Options of `runAdapterConformance`. */
export interface ConformanceOptions {
  /** Run the createTables / findSchemaProblems cases. @default true */
  schemaManagement?: boolean;
}

/**
 * Registers the storage conformance suite (vitest `describe`/`it`) for one adapter. `setup`
 * runs once and must return a factory over a fresh, empty store; the suite creates its tables
 * (when the adapter can), empties them before each case, and calls `teardown` at the end.
 *
 * @example
 * runAdapterConformance("memory", async () => ({ factory: memoryAdapter(), teardown: async () => {} }));
 */
export function runAdapterConformance(
  name: string,
  setup: () => Promise<ConformanceSetup>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} adapter conformance`, () => {
    const h = new Harness(setup);
    beforeAll(() => h.start());
    afterAll(() => h.stop());
    beforeEach(() => h.clean());
    crudCases(h);
    whereCases(h);
    valueCases(h);
    hostileValueCases(h);
    hostileTextCases(h);
    atomicCases(h);
    transactionCases(h);
    sessionJoinCases(h);
    findPageCases(h);
    schemaManagementCases(h, options.schemaManagement ?? true);
    onDeleteCases(h, options.schemaManagement ?? true);
  });
}
