import { describe, expect, it } from "vitest";
import type { Measurement } from "../src/load.js";
import { formatMarkdown, formatTable, type BenchReport } from "../src/report.js";

function measurement(rps: number, extra: Partial<Measurement> = {}): Measurement {
  return {
    rps,
    p50: 4,
    p99: 12.5,
    maxLatency: 30,
    requests: rps * 8,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    statusCodes: { "200": rps * 8 },
    durationSeconds: 8,
    ...extra,
  };
}

const report: BenchReport = {
  date: "2026-01-01T00:00:00.000Z",
  machine: {
    cpus: 2,
    cpuModel: "Test CPU",
    node: "v20.20.2",
    platform: "linux",
    commit: "abc1234",
    loadAverageAtStart: 0.12,
  },
  options: { durationSeconds: 8, warmupSeconds: 2, connections: 10, quick: false },
  scrypt: { medianMs: 100, cores: 2, signInsPerSecond: 20 },
  figures: [
    {
      figure: "get-session",
      latchkey: measurement(1500),
      reference: measurement(500),
      ratio: 3,
      scryptShare: null,
    },
    {
      figure: "sign-in",
      latchkey: measurement(18),
      reference: measurement(9, { non2xx: 2, statusCodes: { "200": 70, "500": 2 } }),
      ratio: 2,
      scryptShare: { latchkey: 0.9, reference: 0.45 },
    },
  ],
};

describe("formatTable", () => {
  it("shows rps, latencies, the ratio and the share of the scrypt limit", () => {
    const lines = formatTable(report).split("\n");
    expect(lines[0]).toMatch(/^figure\s+Latchkey rps\s+p50 ms\s+p99 ms\s+reference rps/);
    expect(lines[2]).toMatch(/^get-session\s+1500\s+4\.0\s+13\s+500\s+4\.0\s+13\s+3\.00x\s*$/);
    expect(lines[3]).toMatch(/^sign-in \(!\)\s+18 .* 2\.00x\s+90% \/ 45%$/);
  });

  it("states the scrypt limit and flags non-2xx answers", () => {
    const text = formatTable(report);
    expect(text).toContain("takes 100.0 ms (median of 5); 2 cores / that = 20 sign-ins/s at most.");
    expect(text).toContain(
      '(!) sign-in on reference: 2 non-2xx, 0 errors, 0 timeouts; status codes {"200":70,"500":2}',
    );
  });
});

describe("formatMarkdown", () => {
  it("is a Markdown table with the machine and load described", () => {
    const md = formatMarkdown(report);
    expect(md).toContain(
      "Machine: 2 × Test CPU, Node v20.20.2, linux, commit abc1234, load average 0.12 at start.",
    );
    expect(md).toContain(
      "| figure | Latchkey rps | p50 ms | p99 ms | reference rps | p50 ms | p99 ms | ratio | % scrypt limit (L / ref) |",
    );
    expect(md).toContain("| --- | ---: | ---: |");
    expect(md).toContain("| get-session | 1500 | 4.0 | 13 | 500 | 4.0 | 13 | 3.00x |  |");
  });
});
