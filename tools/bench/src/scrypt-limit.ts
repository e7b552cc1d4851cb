import { availableParallelism } from "node:os";
import { scrypt } from "node:crypto";

/** The machine's ceiling for password sign-ins: every one costs one scrypt, whatever the server. */
export interface ScryptLimit {
  /** Median wall time of one native scrypt (9 in a row), in milliseconds. */
  medianMs: number;
  cores: number;
  /** cores / median time: sign-ins per second if every core did nothing but hash. */
  signInsPerSecond: number;
  /**
   * Hashes per second actually reached with libuv's 4 pool threads kept busy: what the cores
   * deliver when hashes run side by side (they share caches and memory bandwidth). Context for
   * the limit, which the targets are measured against.
   */
  parallelPerSecond: number;
}

// The reference's password hash parameters (@better-auth/utils password.node, native scrypt on Node).
const N = 16384;
const r = 16;
const p = 1;
const KEY_LENGTH = 64;
// 128·N·r bytes is exactly 32 MiB, which is Node's default maxmem and is refused: give headroom.
const MAX_MEM = 64 * 1024 * 1024;

const hash = (i: number): Promise<void> =>
  new Promise<void>((resolve, reject) =>
    scrypt(`password-${i}`, `salt-${i}`, KEY_LENGTH, { N, r, p, maxmem: MAX_MEM }, (error) =>
      error ? reject(error) : resolve(),
    ),
  );

/** libuv's default thread-pool size: how many native hashes a Node server runs at once. */
const POOL_SIZE = 4;

/** Times `runs` native scrypt calls one after another and takes the median; then 16 with 4 in flight. */
export async function measureScryptLimit(runs = 9): Promise<ScryptLimit> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await hash(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const medianMs = times[Math.floor(times.length / 2)] ?? Number.NaN;
  const cores = availableParallelism();
  const total = 4 * POOL_SIZE;
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: POOL_SIZE }, async () => {
      while (next < total) await hash(runs + next++);
    }),
  );
  const parallelPerSecond = (total * 1000) / (performance.now() - start);
  return { medianMs, cores, signInsPerSecond: (cores * 1000) / medianMs, parallelPerSecond };
}
