import type autocannon from "autocannon";
import { describe, medianOfRounds, runLoad, type Measurement } from "./load.js";
import type { RunContext, Target } from "./run-context.js";

/** The order of round `round`: as given on even rounds, reversed on odd ones, so drift hits every target alike. */
export function roundOrder<K>(keys: readonly K[], round: number): K[] {
  return round % 2 ? [...keys].reverse() : [...keys];
}

/**
 * Loads each target in turn, round after round, and takes the median of each statistic per
 * target. On a machine shared with other work, a burst of it lands in one round of one target
 * instead of deciding the figure; alternating the order cancels slow drift. Every target is
 * warmed up first; every run starts on a settled server (nothing in flight).
 */
export async function measureInRounds<K extends string>(
  ctx: RunContext,
  targets: Record<K, Target>,
  request: (target: Target, key: K) => Partial<autocannon.Options>,
  label: string,
): Promise<Record<K, Measurement>> {
  const { options } = ctx;
  const keys = Object.keys(targets) as K[];
  const runs = Object.fromEntries(keys.map((key) => [key, [] as Measurement[]])) as Record<K, Measurement[]>;
  const load = async (key: K, seconds: number): Promise<Measurement> => {
    const target = targets[key];
    const run = await runLoad(target.server.baseURL, request(target, key), options.connections, { seconds });
    await target.server.settle();
    return run;
  };
  if (options.warmupSeconds > 0) for (const key of keys) await load(key, options.warmupSeconds);
  for (let round = 0; round < options.rounds; round++) {
    for (const key of roundOrder(keys, round)) runs[key].push(await load(key, options.durationSeconds));
  }
  const result = {} as Record<K, Measurement>;
  for (const key of keys) {
    result[key] = medianOfRounds(runs[key]);
    ctx.log(`${key} ${label}: ${describe(result[key])}`);
  }
  return result;
}
