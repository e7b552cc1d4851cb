import autocannon from "autocannon";
import type { EventEmitter } from "node:events";
import { msText } from "./targets.js";

/** What one autocannon run measured; latencies count 2xx answers only, as autocannon records them. */
export interface Measurement {
  /** 2xx answers per second over the measured window. */
  rps: number;
  /**
   * Median and 99th-percentile latency in milliseconds, from every 2xx answer's own time
   * (autocannon's high-resolution timer; its histogram keeps whole milliseconds only).
   */
  p50: number;
  p99: number;
  maxLatency: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  durationSeconds: number;
  /** When the figure was measured in rounds: each round's rps, p50 and p99 (the fields above are their medians). */
  rounds?: Array<{ rps: number; p50: number; p99: number }>;
}

/** How long a run lasts: a number of seconds, or a number of requests. */
export type LoadLength = { seconds: number } | { amount: number };

/** Runs autocannon against `url` with `settings` for `length`. */
export async function runLoad(
  url: string,
  settings: Partial<autocannon.Options>,
  connections: number,
  length: LoadLength,
): Promise<Measurement> {
  const run = autocannon({
    ...settings,
    url,
    connections,
    ...("seconds" in length ? { duration: length.seconds } : { amount: length.amount }),
    pipelining: 1,
    // Without a callback autocannon answers its tracker: an EventEmitter that is also thenable.
  }) as Promise<autocannon.Result> & Pick<EventEmitter, "on">;
  const latencies: number[] = [];
  run.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await run;
  latencies.sort((a, b) => a - b);
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {}))
    statusCodes[code] = stat.count ?? 0;
  const seconds = (result.finish.getTime() - result.start.getTime()) / 1000 || result.duration;
  return {
    rps: result["2xx"] / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    maxLatency: result.latency.max,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    durationSeconds: seconds,
  };
}

/** The nearest-rank percentile of ascending `sorted` values: the smallest value that `p`% of them do not exceed; NaN for none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** The median of each statistic over `runs` (rps, p50 and p99 separately); counts are summed. */
export function medianOfRounds(runs: readonly Measurement[]): Measurement {
  const statusCodes: Record<string, number> = {};
  for (const run of runs) {
    for (const [code, count] of Object.entries(run.statusCodes))
      statusCodes[code] = (statusCodes[code] ?? 0) + count;
  }
  const sum = (pick: (m: Measurement) => number): number => runs.reduce((total, m) => total + pick(m), 0);
  return {
    rps: median(runs.map((m) => m.rps)),
    p50: median(runs.map((m) => m.p50)),
    p99: median(runs.map((m) => m.p99)),
    maxLatency: Math.max(...runs.map((m) => m.maxLatency)),
    requests: sum((m) => m.requests),
    non2xx: sum((m) => m.non2xx),
    errors: sum((m) => m.errors),
    timeouts: sum((m) => m.timeouts),
    statusCodes,
    durationSeconds: sum((m) => m.durationSeconds),
    rounds: runs.map(({ rps, p50, p99 }) => ({ rps, p50, p99 })),
  };
}

/** The median of `values` (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (!sorted.length) return Number.NaN;
  return sorted.length % 2 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

/** Whether any answer of the run was not a 2xx, or failed. */
export function failed(m: Measurement): boolean {
  return m.non2xx > 0 || m.errors > 0 || m.timeouts > 0;
}

/** One log line for a measurement. */
export function describe(m: Measurement): string {
  return (
    `${m.rps.toFixed(0)} rps, p50 ${msText(m.p50)} ms, p99 ${msText(m.p99)} ms` +
    (failed(m)
      ? ` — ${m.non2xx} non-2xx ${JSON.stringify(m.statusCodes)}, ${m.errors} errors, ${m.timeouts} timeouts`
      : "")
  );
}
