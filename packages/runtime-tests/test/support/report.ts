import type { RunningServer } from "./process.ts";

/** One line per runtime in the test log: how long it took to listen. */
export function reportStartup(runtime: string, server: RunningServer): void {
  console.info(`[runtime-tests] ${runtime}: listening after ${server.startupMs} ms`);
}
