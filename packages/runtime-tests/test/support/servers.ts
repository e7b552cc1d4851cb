import type { RunningServer } from "./process.ts";

/**
 * The runtimes one test file starts together. If any fails to start, the others are stopped
 * before the error is thrown (a failed `beforeAll` never leaves a process behind) and the
 * error names every failure with its output.
 */
export class Servers<Name extends string> {
  readonly #running = new Map<Name, RunningServer>();

  /** Starts all of them in parallel; throws if any fails. */
  async start(starting: Record<Name, Promise<RunningServer>>): Promise<void> {
    const entries = Object.entries(starting) as Array<[Name, Promise<RunningServer>]>;
    const results = await Promise.allSettled(entries.map(([, promise]) => promise));
    const errors: string[] = [];
    results.forEach((result, i) => {
      const name = entries[i]![0];
      if (result.status === "fulfilled") this.#running.set(name, result.value);
      else errors.push(`${name}: ${String(result.reason)}`);
    });
    if (errors.length) {
      await this.stop();
      throw new Error(errors.join("\n"));
    }
  }

  /** The base URL of `socket` (default `main`) of a started runtime. */
  url(name: Name, socket = "main"): string {
    const url = this.#running.get(name)?.urls[socket];
    if (!url) throw new Error(`${name} is not listening on socket "${socket}"`);
    return url;
  }

  /** The started runtime itself, for its start-up time. */
  get(name: Name): RunningServer {
    const server = this.#running.get(name);
    if (!server) throw new Error(`${name} is not running`);
    return server;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.#running.values()].map((server) => server.stop()));
    this.#running.clear();
  }
}
