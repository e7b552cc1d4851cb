import type { Reporter, TestModule } from "vitest/node";

/** How many of the slowest test files the summary names. */
const SLOWEST = 15;

/**
 * Prints the slowest test files (the suite has a 15-minute budget on 2 cores: this is where
 * to look when it grows), then one plain closing line, `tests: N passed, N failed, N skipped`,
 * that CI reads.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      if (mod.state() === "failed" && mod.children.size === 0) failed++;
    }
    console.log(`\n${slowestFiles(testModules)}`);
    console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}

function slowestFiles(testModules: ReadonlyArray<TestModule>): string {
  const timed = testModules
    .map((mod) => ({ file: mod.relativeModuleId, ms: mod.diagnostic().duration }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, SLOWEST);
  const lines = timed.map(({ file, ms }) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`);
  return [`slowest ${timed.length} test files:`, ...lines].join("\n");
}
