import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type ChildServer, type Implementation } from "./child-server.js";
import { FIGURES, figureRequest, hashesPassword, type FigureName } from "./figures.js";
import { runLoad, type Measurement } from "./load.js";
import { describeMachine } from "./machine.js";
import type { BenchOptions } from "./options.js";
import type { BenchReport, FigureResult } from "./report.js";
import { measureScryptLimit } from "./scrypt-limit.js";
import { seedUser, type SeededUser } from "./seed.js";

interface Target {
  server: ChildServer;
  user: SeededUser;
}

/** Starts both servers, loads each figure on each in turn, stops them, and returns the report. */
export async function runBench(options: BenchOptions, log: (line: string) => void): Promise<BenchReport> {
  const [loadAverageAtStart = 0] = loadavg();
  log(
    `1-minute load average at start: ${loadAverageAtStart.toFixed(2)} (the figures assume an otherwise idle machine)`,
  );
  // Measured first, on a quiet machine: it is the ceiling the hashing figures are read against.
  const scrypt = await measureScryptLimit();
  log(
    `scrypt: ${scrypt.medianMs.toFixed(1)} ms each, limit ${scrypt.signInsPerSecond.toFixed(0)} sign-ins/s on ${scrypt.cores} cores`,
  );
  const dir = mkdtempSync(join(tmpdir(), "latchkey-bench-"));
  const secret = randomBytes(32).toString("base64url");
  const servers: ChildServer[] = [];
  try {
    const start = async (implementation: Implementation): Promise<Target> => {
      const server = await startServer(implementation, join(dir, `${implementation}.db`), secret);
      servers.push(server);
      log(`${implementation}: listening on ${server.baseURL}`);
      return { server, user: await seedUser(server.baseURL) };
    };
    // One after the other: two cold starts at once would only slow each other down.
    const targets: Record<Implementation, Target> = {
      latchkey: await start("latchkey"),
      reference: await start("reference"),
    };
    const figures: FigureResult[] = [];
    for (const figure of FIGURES) {
      const latchkey = await measure(figure, targets.latchkey, options, log);
      const reference = await measure(figure, targets.reference, options, log);
      figures.push({
        figure,
        latchkey,
        reference,
        ratio: latchkey.rps / reference.rps,
        scryptShare: hashesPassword(figure)
          ? {
              latchkey: latchkey.rps / scrypt.signInsPerSecond,
              reference: reference.rps / scrypt.signInsPerSecond,
            }
          : null,
      });
    }
    return {
      date: new Date().toISOString(),
      machine: describeMachine(loadAverageAtStart),
      options,
      scrypt,
      figures,
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(
  figure: FigureName,
  target: Target,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<Measurement> {
  const { server, user } = target;
  const settings = figureRequest(figure, server.baseURL, user);
  if (options.warmupSeconds > 0) {
    const warmup = await runLoad(server.baseURL, settings, options.connections, options.warmupSeconds);
    // autocannon stops without waiting for answers in flight; the server still finishes them
    // (a sign-in's scrypt runs on), which would eat into the measured window. Let them drain.
    await new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(warmup.maxLatency, 100), 5_000)));
  }
  const result = await runLoad(server.baseURL, settings, options.connections, options.durationSeconds);
  const problems = result.non2xx + result.errors + result.timeouts;
  log(
    `${server.implementation} ${figure}: ${result.rps.toFixed(0)} rps, p50 ${result.p50} ms, p99 ${result.p99} ms` +
      (problems > 0
        ? ` — ${result.non2xx} non-2xx ${JSON.stringify(result.statusCodes)}, ${result.errors} errors`
        : ""),
  );
  return result;
}
