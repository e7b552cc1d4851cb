import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isComplete } from "./options.js";
import { formatMarkdown, type BenchReport } from "./report.js";

/** tools/bench/results: JSON per run (gitignored), plus latest.md to commit when numbers matter. */
export const RESULTS_DIR = fileURLToPath(new URL("../results/", import.meta.url));

/** docs/benchmarks.md: the last complete full run, for readers of the docs. */
export const DOCS_FILE = fileURLToPath(new URL("../../../docs/benchmarks.md", import.meta.url));

/**
 * Writes the run as `bench-<date>.json`; a complete full run also replaces `latest.json`,
 * `latest.md` and docs/benchmarks.md. A `--quick` or `--only` run is a check, not a record: it
 * writes only `bench-<date>-quick.json` / `-partial.json`, so its numbers never replace the last
 * complete run's. Returns the paths written.
 */
export function writeResults(
  report: BenchReport,
  dir = RESULTS_DIR,
  docsFile: string | null = DOCS_FILE,
): string[] {
  mkdirSync(dir, { recursive: true });
  const stamp = report.date.replace(/[:.]/g, "-");
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const record =
    !report.options.quick && isComplete(report.options) && report.runs.every((run) => !run.error);
  const suffix = report.options.quick ? "-quick" : isComplete(report.options) ? "" : "-partial";
  const files: Array<[string, string]> = [[join(dir, `bench-${stamp}${suffix}.json`), json]];
  if (record) {
    const markdown = formatMarkdown(report);
    files.push([join(dir, "latest.json"), json], [join(dir, "latest.md"), markdown]);
    if (docsFile) files.push([docsFile, docsPage(markdown)]);
  }
  for (const [file, text] of files) writeFileSync(file, text);
  return files.map(([file]) => file);
}

/** latest.md under a short preface saying where the numbers come from. */
function docsPage(markdown: string): string {
  const [, ...body] = markdown.split("\n");
  return [
    "# Benchmarks",
    "",
    "Latchkey against the reference, better-auth@1.7.6, measured by `pnpm bench` (tools/bench, see its",
    "README for the method) in one run on one machine. Written by the last complete run; ratios are",
    "what the targets are about, absolute numbers depend on the machine.",
    "",
    `## Run of ${(markdown.split("\n")[0] ?? "").replace(/^# .* — /, "")}`,
    ...body,
  ].join("\n");
}
