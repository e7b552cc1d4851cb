import autocannon from "autocannon";

/** What one autocannon run measured; latencies count 2xx answers only, as autocannon records them. */
export interface Measurement {
  /** 2xx answers per second over the measured window. */
  rps: number;
  /** Median latency in milliseconds. */
  p50: number;
  p99: number;
  maxLatency: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  durationSeconds: number;
}

/** Runs autocannon against `url` with `settings` for `durationSeconds`. */
export async function runLoad(
  url: string,
  settings: Partial<autocannon.Options>,
  connections: number,
  durationSeconds: number,
): Promise<Measurement> {
  const result = await autocannon({
    ...settings,
    url,
    connections,
    duration: durationSeconds,
    pipelining: 1,
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {}))
    statusCodes[code] = stat.count ?? 0;
  const seconds = (result.finish.getTime() - result.start.getTime()) / 1000 || result.duration;
  return {
    rps: result["2xx"] / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    maxLatency: result.latency.max,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    durationSeconds: seconds,
  };
}
