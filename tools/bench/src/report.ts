import type { FigureName } from "./figures.js";
import type { Measurement } from "./load.js";
import type { BenchOptions } from "./options.js";
import type { ScryptLimit } from "./scrypt-limit.js";

/** Both implementations' measurements of one figure. */
export interface FigureResult {
  figure: FigureName;
  latchkey: Measurement;
  reference: Measurement;
  /** Latchkey rps / reference rps. */
  ratio: number;
  /** Share of the scrypt limit each reached, for figures that hash a password; null otherwise. */
  scryptShare: { latchkey: number; reference: number } | null;
}

/** One bench run, as written to results/*.json. */
export interface BenchReport {
  date: string;
  machine: {
    cpus: number;
    cpuModel: string;
    node: string;
    platform: string;
    commit: string;
    /** 1-minute load average just before the run: above ~0.5 something else was using the cores. */
    loadAverageAtStart: number;
  };
  options: BenchOptions;
  scrypt: ScryptLimit;
  figures: FigureResult[];
}

const HEADER = [
  "figure",
  "Latchkey rps",
  "p50 ms",
  "p99 ms",
  "reference rps",
  "p50 ms",
  "p99 ms",
  "ratio",
  "% scrypt limit (L / ref)",
];

/** The results table as aligned plain text, for the terminal. */
export function formatTable(report: BenchReport): string {
  const rows = [HEADER, ...report.figures.map(row)];
  const widths = HEADER.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ");
  return [
    line(HEADER),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...rows.slice(1).map(line),
    "",
    ...notes(report),
  ].join("\n");
}

/** The results table and its context as Markdown, for results/latest.md. */
export function formatMarkdown(report: BenchReport): string {
  const { machine, options } = report;
  const cells = (r: string[]): string => `| ${r.join(" | ")} |`;
  return [
    `# Latchkey vs better-auth@1.7.6 — ${report.date}`,
    "",
    `Machine: ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}, ${machine.platform}, commit ${machine.commit}, load average ${machine.loadAverageAtStart.toFixed(2)} at start.`,
    `Load: autocannon, ${options.connections} connections, ${options.warmupSeconds} s warm-up then ${options.durationSeconds} s measured per figure and server; both servers on SQLite files, NODE_ENV=production, rate limit off.`,
    "",
    cells(HEADER),
    cells(HEADER.map((_, i) => (i === 0 ? "---" : "---:"))),
    ...report.figures.map((f) => cells(row(f))),
    "",
    ...notes(report).map((n) => `- ${n}`),
    "",
  ].join("\n");
}

function row(f: FigureResult): string[] {
  const share = f.scryptShare
    ? `${percent(f.scryptShare.latchkey)} / ${percent(f.scryptShare.reference)}`
    : "";
  return [
    f.figure + (failed(f.latchkey) || failed(f.reference) ? " (!)" : ""),
    f.latchkey.rps.toFixed(0),
    ms(f.latchkey.p50),
    ms(f.latchkey.p99),
    f.reference.rps.toFixed(0),
    ms(f.reference.p50),
    ms(f.reference.p99),
    `${f.ratio.toFixed(2)}x`,
    share,
  ];
}

function notes(report: BenchReport): string[] {
  const { scrypt } = report;
  const lines = [
    `scrypt limit: one native scrypt (N=16384, r=16, p=1, 64 bytes) takes ${scrypt.medianMs.toFixed(1)} ms (median of 5); ` +
      `${scrypt.cores} cores / that = ${scrypt.signInsPerSecond.toFixed(0)} sign-ins/s at most.`,
  ];
  for (const f of report.figures) {
    for (const [name, m] of [
      ["Latchkey", f.latchkey],
      ["reference", f.reference],
    ] as const) {
      if (failed(m)) {
        lines.push(
          `(!) ${f.figure} on ${name}: ${m.non2xx} non-2xx, ${m.errors} errors, ${m.timeouts} timeouts; status codes ${JSON.stringify(m.statusCodes)} (rps counts 2xx only).`,
        );
      }
    }
  }
  return lines;
}

function failed(m: Measurement): boolean {
  return m.non2xx > 0 || m.errors > 0 || m.timeouts > 0;
}

function ms(value: number): string {
  return value.toFixed(value < 10 ? 1 : 0);
}

function percent(share: number): string {
  return `${(share * 100).toFixed(0)}%`;
}
