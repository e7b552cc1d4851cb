import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatMarkdown, type BenchReport } from "./report.js";

/** tools/bench/results: JSON per run (gitignored), plus latest.md to commit when numbers matter. */
export const RESULTS_DIR = fileURLToPath(new URL("../results/", import.meta.url));

/**
 * Writes the run as `bench-<date>.json`, `latest.json` and `latest.md`; returns the paths.
 * A `--quick` run is a smoke test: it writes only `bench-<date>-quick.json`, so its rough
 * numbers never replace the last full run's latest.md.
 */
export function writeResults(report: BenchReport, dir = RESULTS_DIR): string[] {
  mkdirSync(dir, { recursive: true });
  const stamp = report.date.replace(/[:.]/g, "-");
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const files: Array<[string, string]> = report.options.quick
    ? [[join(dir, `bench-${stamp}-quick.json`), json]]
    : [
        [join(dir, `bench-${stamp}.json`), json],
        [join(dir, "latest.json"), json],
        [join(dir, "latest.md"), formatMarkdown(report)],
      ];
  for (const [file, text] of files) writeFileSync(file, text);
  return files.map(([file]) => file);
}
