import type { GroupResults } from "./bench.js";
import type { Machine } from "./machine.js";
import type { BenchOptions, GroupName } from "./options.js";
import type { PluginDiscovery } from "./plugins.js";
import { summaryTable } from "./summary.js";
import { tableMarkdown, tableText, type Table } from "./table.js";

/** How one group's run went: its length, how busy the rest of the machine was, and any failure. */
export interface GroupRun {
  group: GroupName;
  seconds: number;
  /** Share of the machine's CPU used by work outside the bench meanwhile (0-1). */
  otherCpuShare: number;
  error: string | null;
}

/** One bench run, as written to results/*.json. */
export interface BenchReport {
  date: string;
  machine: Machine;
  options: BenchOptions;
  plugins: PluginDiscovery;
  runs: GroupRun[];
  /** Share of the machine's CPU used by work outside the bench over the whole run (0-1). */
  otherCpuShare: number;
  results: Partial<GroupResults>;
  /** What was printed, table by table. */
  tables: Table[];
}

/** Above this share of the CPU taken by other work, the report says the numbers are noisy. */
export const BUSY_SHARE = 0.1;

/** The whole report as plain text, for the terminal. */
export function formatTable(report: BenchReport): string {
  return [
    ...context(report),
    "",
    ...allTables(report).flatMap((table) => [tableText(table), ""]),
    ...failures(report),
  ].join("\n");
}

/** The whole report as Markdown: results/latest.md, and docs/benchmarks.md after a complete run. */
export function formatMarkdown(report: BenchReport): string {
  return [
    `# Latchkey vs better-auth@1.7.6 — ${report.date}`,
    "",
    ...context(report).map((line) => `${line}  `),
    "",
    ...allTables(report).map(tableMarkdown),
    ...failures(report).map((line) => `- ${line}`),
  ].join("\n");
}

/** The summary of targets (computed from the numbers, so older result files get one too), then each group's table. */
function allTables(report: BenchReport): Table[] {
  const summary = summaryTable(report.results);
  return summary ? [summary, ...report.tables] : report.tables;
}

function context(report: BenchReport): string[] {
  const { machine, options } = report;
  // Bundle sizes do not depend on load (and esbuild's own process is counted as other work).
  const busy = report.runs.filter((run) => run.group !== "bundle" && run.otherCpuShare > BUSY_SHARE);
  return [
    `Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGB} GB, Node ${machine.node}, ${machine.platform}, commit ${machine.commit}.`,
    `Load: 1-minute load average ${machine.loadAverageAtStart.toFixed(2)} at start; other work used ${percent(report.otherCpuShare)} of the CPU during the run` +
      (busy.length
        ? ` (busy during ${busy.map((run) => `${run.group} ${percent(run.otherCpuShare)}`).join(", ")}: those figures are noisier than on an idle machine).`
        : "."),
    `Method: each server its own process on loopback, loaded in turn by autocannon from the bench process (${options.connections} connections, ${options.warmupSeconds} s warm-up, then ${options.rounds} round${options.rounds > 1 ? "s" : ""} of ${options.durationSeconds} s per server, the order alternating; each statistic is the median over rounds)` +
      `; both libraries bundled by esbuild and run with plain node, NODE_ENV=production, rate limit off${options.quick ? "; --quick: smoke numbers" : ""}.`,
    "rps counts 2xx answers only; p50/p99 are of every 2xx answer's own time (microsecond resolution); L/ref = Latchkey / reference.",
  ];
}

function failures(report: BenchReport): string[] {
  return report.runs
    .filter((run) => run.error)
    .map((run) => `(!) ${run.group} failed: ${(run.error ?? "").split("\n")[0]}`);
}

function percent(share: number): string {
  return `${(share * 100).toFixed(0)}%`;
}
