// `pnpm bench [--quick] [--only=...]`: Latchkey against better-auth@1.7.6 on this machine, one run.
import { runBench } from "./bench.js";
import { parseOptions, type BenchOptions } from "./options.js";
import { formatTable } from "./report.js";
import { writeResults } from "./results.js";

function optionsOrExit(): BenchOptions {
  try {
    return parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
}

const report = await runBench(optionsOrExit(), (line) => console.error(`[bench] ${line}`));
console.log(`\n${formatTable(report)}`);
for (const file of writeResults(report)) console.log(`wrote ${file}`);
if (report.runs.some((run) => run.error)) process.exitCode = 1;
