import { availableParallelism } from "node:os";
import { scrypt } from "node:crypto";

/** The machine's ceiling for password sign-ins: every one costs one scrypt, whatever the server. */
export interface ScryptLimit {
  /** Median wall time of one native scrypt, in milliseconds. */
  medianMs: number;
  cores: number;
  /** cores / median time: sign-ins per second if every core did nothing but hash. */
  signInsPerSecond: number;
}

// The reference's password hash parameters (@better-auth/utils password.node, native scrypt on Node).
const N = 16384;
const r = 16;
const p = 1;
const KEY_LENGTH = 64;
// 128·N·r bytes is exactly 32 MiB, which is Node's default maxmem and is refused: give headroom.
const MAX_MEM = 64 * 1024 * 1024;

/** Times `runs` native scrypt calls one after another and takes the median. */
export async function measureScryptLimit(runs = 5): Promise<ScryptLimit> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await new Promise<void>((resolve, reject) =>
      scrypt(`password-${i}`, `salt-${i}`, KEY_LENGTH, { N, r, p, maxmem: MAX_MEM }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const medianMs = times[Math.floor(times.length / 2)] ?? Number.NaN;
  const cores = availableParallelism();
  return { medianMs, cores, signInsPerSecond: (cores * 1000) / medianMs };
}
