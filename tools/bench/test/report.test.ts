import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { median, medianOfRounds, percentile } from "../src/load.js";
import { parseOptions } from "../src/options.js";
import { formatMarkdown, formatTable, type BenchReport } from "../src/report.js";
import { writeResults } from "../src/results.js";
import { roundOrder } from "../src/rounds.js";
import { summaryTable } from "../src/summary.js";
import { tableMarkdown, tableText, type Table } from "../src/table.js";
import { atLeast, atMost, msText, ratioText, verdictText } from "../src/targets.js";

const table: Table = {
  title: "get-session with a valid session",
  header: ["get-session", "Latchkey rps", "ref rps", "rps L/ref", "target"],
  rows: [["SQLite, cookie", "1500", "300", "5.00x", "≥ 5x: met"]],
  notes: ["a note"],
};

function report(argv: string[] = [], extra: Partial<BenchReport> = {}): BenchReport {
  return {
    date: "2026-01-01T00:00:00.000Z",
    machine: {
      cpus: 2,
      cpuModel: "Test CPU",
      memoryGB: 8,
      node: "v20.20.2",
      platform: "linux",
      commit: "abc1234",
      loadAverageAtStart: 0.12,
    },
    options: parseOptions(argv),
    plugins: { plugins: [], skipped: [], unmapped: [] },
    runs: [{ group: "get-session", seconds: 60, otherCpuShare: 0.02, error: null }],
    otherCpuShare: 0.02,
    results: {},
    tables: [table],
    ...extra,
  };
}

describe("targets", () => {
  it("says met or NOT met beside the formula", () => {
    expect(verdictText(atLeast(5.2, 5, "≥ 5x"))).toBe("≥ 5x: met");
    expect(verdictText(atMost(0.4, 1 / 3, "≤ 1/3"))).toBe("≤ 1/3: NOT met");
    expect(verdictText(null)).toBe("");
  });

  it("takes nearest-rank percentiles of sorted latencies", () => {
    const sorted = Array.from({ length: 200 }, (_, i) => (i + 1) / 100);
    expect(percentile(sorted, 50)).toBe(1);
    expect(percentile(sorted, 99)).toBe(1.98);
    expect(percentile([0.3], 99)).toBe(0.3);
    expect(percentile([], 99)).toBeNaN();
  });

  it("formats ratios and milliseconds", () => {
    expect(ratioText(3.041)).toBe("3.04x");
    expect(ratioText(Number.NaN)).toBe("n/a");
    expect(msText(4)).toBe("4.0");
    expect(msText(0.437)).toBe("0.44");
    expect(msText(14.4)).toBe("14");
  });
});

describe("tables", () => {
  it("aligns plain text: first column left, numbers right", () => {
    const lines = tableText(table).split("\n");
    expect(lines[0]).toBe("== get-session with a valid session");
    expect(lines[1]).toMatch(/^get-session\s+Latchkey rps\s+ref rps\s+rps L\/ref\s+target$/);
    expect(lines[3]).toMatch(/^SQLite, cookie\s+1500\s+300\s+5\.00x\s+≥ 5x: met$/);
    expect(lines[4]).toBe("  a note");
  });

  it("renders Markdown with right-aligned number columns", () => {
    const md = tableMarkdown(table);
    expect(md).toContain("### get-session with a valid session");
    expect(md).toContain("| get-session | Latchkey rps | ref rps | rps L/ref | target |");
    expect(md).toContain("| --- | ---: | ---: | ---: | ---: |");
    expect(md).toContain("| SQLite, cookie | 1500 | 300 | 5.00x | ≥ 5x: met |");
    expect(md).toContain("- a note");
  });
});

describe("report", () => {
  it("states the machine, the load and the method before the tables", () => {
    const text = formatTable(report());
    expect(text).toContain("Machine: 2 × Test CPU, 8 GB, Node v20.20.2, linux, commit abc1234.");
    expect(text).toContain(
      "1-minute load average 0.12 at start; other work used 2% of the CPU during the run.",
    );
    expect(text).toContain("== get-session with a valid session");
  });

  it("names the groups that ran beside other work, and failed groups", () => {
    const busy = report([], {
      runs: [
        { group: "get-session", seconds: 60, otherCpuShare: 0.4, error: null },
        { group: "memory", seconds: 10, otherCpuShare: 0, error: "Error: boom\n  at x" },
      ],
    });
    const md = formatMarkdown(busy);
    expect(md).toContain("busy during get-session 40%");
    expect(md).toContain("- (!) memory failed: Error: boom");
  });
});

describe("writeResults", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const temp = (): string => {
    const dir = mkdtempSync(join(tmpdir(), "bench-results-"));
    dirs.push(dir);
    return dir;
  };

  it("a complete full run replaces latest.* and the docs page", () => {
    const dir = temp();
    const docs = join(dir, "benchmarks.md");
    writeResults(report(), dir, docs);
    expect(readdirSync(dir).sort()).toEqual([
      "bench-2026-01-01T00-00-00-000Z.json",
      "benchmarks.md",
      "latest.json",
      "latest.md",
    ]);
    const page = readFileSync(docs, "utf8");
    expect(page).toMatch(/^# Benchmarks\n/);
    expect(page).toContain("## Run of 2026-01-01T00:00:00.000Z");
    expect(page).toContain("Machine: 2 × Test CPU");
  });

  it.each([
    [["--quick"], "bench-2026-01-01T00-00-00-000Z-quick.json"],
    [["--only=bundle"], "bench-2026-01-01T00-00-00-000Z-partial.json"],
  ])("%j writes only its own JSON", (argv, name) => {
    const dir = temp();
    writeResults(report(argv), dir, join(dir, "benchmarks.md"));
    expect(readdirSync(dir)).toEqual([name]);
  });
});

describe("medianOfRounds", () => {
  it("takes each statistic's median over rounds and sums the counts", () => {
    const round = (rps: number, p99: number, non2xx = 0) => ({
      rps,
      p50: rps / 100,
      p99,
      maxLatency: p99 * 2,
      requests: rps,
      non2xx,
      errors: 0,
      timeouts: 0,
      statusCodes: { "200": rps - non2xx, ...(non2xx ? { "500": non2xx } : {}) },
      durationSeconds: 1,
    });
    const m = medianOfRounds([round(1000, 12), round(400, 90, 3), round(900, 14)]);
    expect(m).toMatchObject({ rps: 900, p50: 9, p99: 14, maxLatency: 180, requests: 2300, non2xx: 3 });
    expect(m.statusCodes).toEqual({ "200": 2297, "500": 3 });
    expect(m.rounds).toHaveLength(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe("roundOrder", () => {
  it("reverses the order every other round", () => {
    expect([0, 1, 2].map((r) => roundOrder(["a", "b", "c"], r).join(""))).toEqual(["abc", "cba", "abc"]);
  });
});

describe("summaryTable", () => {
  it("lists each measured target with its verdict, and nothing for groups that did not run", () => {
    const size = { raw: 3, minified: 2, gzip: 1, externals: [], byPackage: [] };
    const summary = summaryTable({
      bundle: {
        rows: [
          {
            case: "minimal",
            latchkey: size,
            reference: size,
            ratio: 0.6,
            target: atMost(0.6, 1 / 3, "≤ 1/3"),
          },
        ],
      },
      "cold-start": {
        samples: { latchkey: [], reference: [], floor: [], layer: [] },
        median: { latchkey: 300, reference: 400, floor: 100, layer: 200 },
        ratio: 0.75,
        target: atMost(0.75, 0.5, "≤ 1/2"),
      },
    });
    expect(summary?.rows).toEqual([
      ["minimal edge bundle ≤ 1/3 of the reference (min+gzip)", "0.60x", "NOT met"],
      ["cold start ≤ 1/2 of the reference (median of 10)", "0.75x", "NOT met"],
    ]);
    expect(summaryTable({})).toBeNull();
  });
});

describe("report summary", () => {
  it("puts the targets at a glance before the group tables, in text and Markdown", () => {
    const size = { raw: 3, minified: 2, gzip: 1, externals: [], byPackage: [] };
    const withBundle = report([], {
      results: {
        bundle: {
          rows: [
            {
              case: "minimal",
              latchkey: size,
              reference: size,
              ratio: 0.3,
              target: atMost(0.3, 1 / 3, "≤ 1/3"),
            },
          ],
        },
      },
    });
    const text = formatTable(withBundle);
    expect(text.indexOf("== targets at a glance")).toBeGreaterThan(0);
    expect(text.indexOf("== targets at a glance")).toBeLessThan(
      text.indexOf("== get-session with a valid session"),
    );
    expect(formatMarkdown(withBundle)).toContain(
      "| minimal edge bundle ≤ 1/3 of the reference (min+gzip) | 0.30x | met |",
    );
  });
});
