import type { ScryptParams } from "./password.js";

// Node only: password hashes on worker threads that run at a lower scheduling priority than
// the event loop. On Linux a thread's nice value is its own, so each worker lowers just itself
// and the kernel gives the event loop the CPU first whenever both want it: requests keep their
// latency while sign-ins run, and hashes take every cycle the loop leaves. Jobs queue at the
// workers, so a core never waits for the event loop to hand out the next hash.

/** Nice value of the hashing threads: the event loop (0) gets about 9 times their CPU share when both are runnable. */
export const HASH_THREAD_NICE = 19;

// Builtins through process.getBuiltinModule, as core reaches them (no require or import for a
// bundler or scanner to chase). The key is copied out: a short Buffer may share a pool slab.
const WORKER_SOURCE = `
const { parentPort } = process.getBuiltinModule("node:worker_threads");
const { scryptSync } = process.getBuiltinModule("node:crypto");
try { process.getBuiltinModule("node:os").setPriority(${HASH_THREAD_NICE}); } catch {}
parentPort.on("message", ({ id, password, salt, N, r, p, dkLen, maxmem }) => {
  try {
    parentPort.postMessage({ id, key: new Uint8Array(scryptSync(password, salt, dkLen, { N, r, p, maxmem })) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});`;

interface WorkerHandle {
  postMessage(value: unknown): void;
  on(event: "message", listener: (value: { id: number; key?: Uint8Array; error?: string }) => void): void;
  on(event: "error" | "exit", listener: (value: unknown) => void): void;
  ref(): void;
  unref(): void;
}
type WorkerClass = new (source: string, options: { eval: true }) => WorkerHandle;

interface Job {
  resolve(key: Uint8Array): void;
  reject(error: Error): void;
}

interface Lane {
  worker: WorkerHandle;
  jobs: Map<number, Job>;
}

interface Host {
  process?: { getBuiltinModule?: (id: string) => unknown; release?: { name?: string } };
  Bun?: unknown;
  Deno?: unknown;
}

/** Node's worker threads, or null elsewhere (Bun and Deno keep the thread-pool path). */
function workerClass(): WorkerClass | null {
  const host = globalThis as Host;
  if (host.Bun !== undefined || host.Deno !== undefined || host.process?.release?.name !== "node") return null;
  const mod = host.process.getBuiltinModule?.("node:worker_threads") as { Worker?: WorkerClass } | undefined;
  return mod?.Worker ?? null;
}

/** A scrypt function running on niced worker threads, one per core; `null` where there are none. */
export function createWorkerScrypt(
  cores: number,
): ((password: Uint8Array, salt: Uint8Array, params: ScryptParams & { maxmem: number }) => Promise<Uint8Array>) | null {
  const Worker = workerClass();
  if (!Worker) return null;
  const lanes: Array<Lane | undefined> = Array.from({ length: cores }, () => undefined);
  let nextId = 0;

  const open = (index: number): Lane => {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    const lane: Lane = { worker, jobs: new Map() };
    worker.on("message", ({ id, key, error }) => {
      const job = lane.jobs.get(id);
      lane.jobs.delete(id);
      // Idle workers must not keep the process alive (a CLI that hashed once has to exit).
      if (lane.jobs.size === 0) worker.unref();
      if (!job) return;
      if (key) job.resolve(key);
      else job.reject(new Error(error ?? "scrypt failed"));
    });
    // A worker that dies fails its jobs; the next hash opens a fresh one in its place.
    const fail = (reason: unknown): void => {
      if (lanes[index] === lane) lanes[index] = undefined;
      for (const job of lane.jobs.values()) job.reject(new Error(`scrypt worker stopped: ${String(reason)}`));
      lane.jobs.clear();
    };
    worker.on("error", fail);
    worker.on("exit", fail);
    // After the listeners: adding a "message" listener refs the worker again.
    worker.unref();
    lanes[index] = lane;
    return lane;
  };

  return (password, salt, { N, r, p, dkLen, maxmem }) => {
    // The lane with the fewest hashes queued; its worker takes them in order.
    let best = 0;
    for (let i = 1; i < cores; i++) {
      if ((lanes[i]?.jobs.size ?? 0) < (lanes[best]?.jobs.size ?? 0)) best = i;
    }
    const lane = lanes[best] ?? open(best);
    const id = nextId++;
    return new Promise<Uint8Array>((resolve, reject) => {
      // Held while a hash is pending, so a process awaiting it does not exit under it.
      if (lane.jobs.size === 0) lane.worker.ref();
      lane.jobs.set(id, { resolve, reject });
      lane.worker.postMessage({ id, password, salt, N, r, p, dkLen, maxmem });
    });
  };
}
