import { expectSession } from "../seed.js";
import { roundRobinGetSession } from "../figures.js";
import { describe, failed, runLoad, type Measurement } from "../load.js";
import { baseSettings, IMPLEMENTATIONS, withServer, type RunContext } from "../run-context.js";
import type { Implementation } from "../server-config.js";
import type { Table } from "../table.js";
import { ratioText } from "../targets.js";

/** Sessions minted per server, and get-session requests spread over them (10 each). */
export const MEMORY_SESSIONS = 1_000;
export const MEMORY_REQUESTS = 10_000;

export interface MemoryMeasurement {
  /** Resident set size (bytes) after start and seeding, before the sessions. */
  rssAtStart: number;
  /** After the sessions were minted and served. */
  rssAfter: number;
  heapUsedAfter: number;
  /** Heap still used after two full collections: what the process keeps. */
  heapRetained: number;
  load: Measurement;
}

export interface MemoryResult {
  latchkey: MemoryMeasurement;
  reference: MemoryMeasurement;
  /** Latchkey RSS after / reference RSS after. */
  ratio: number;
}

/**
 * A fresh SQLite server of each implementation: 1,000 sessions minted through the library's own
 * internal adapter (a bench-only route: signing in 1,000 times would cost 1,000 scrypts), then
 * 10,000 get-session requests, each session 10 times, then the process's own RSS.
 */
export async function runMemory(ctx: RunContext): Promise<MemoryResult> {
  const measured = {} as Record<Implementation, MemoryMeasurement>;
  for (const implementation of IMPLEMENTATIONS) {
    measured[implementation] = await withServer(
      ctx,
      implementation,
      baseSettings(ctx, implementation),
      async (server, user) => {
        const rssAtStart = (await server.stats()).rssBytes;
        const res = await fetch(`${server.baseURL}/__bench/sessions`, {
          method: "POST",
          body: JSON.stringify({ email: user.email, count: MEMORY_SESSIONS }),
        });
        if (res.status !== 200)
          throw new Error(`minting sessions answered ${res.status}: ${await res.text()}`);
        const { cookies } = (await res.json()) as { cookies: string[] };
        await expectSession(server.baseURL, { cookie: cookies[0] ?? "" }, user.email);
        const load = await runLoad(server.baseURL, roundRobinGetSession(cookies), ctx.options.connections, {
          amount: MEMORY_REQUESTS,
        });
        const stats = await server.stats();
        const collected = await server.stats({ gc: true });
        ctx.log(
          `${implementation} memory: ${describe(load)}; RSS ${mb(rssAtStart)} → ${mb(stats.rssBytes)} MB, heap retained ${mb(collected.heapUsedBytes)} MB`,
        );
        return {
          rssAtStart,
          rssAfter: stats.rssBytes,
          heapUsedAfter: stats.heapUsedBytes,
          heapRetained: collected.heapUsedBytes,
          load,
        };
      },
    );
  }
  const { latchkey, reference } = measured;
  return { latchkey, reference, ratio: latchkey.rssAfter / reference.rssAfter };
}

const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);

export function memoryTable(result: MemoryResult): Table {
  const { latchkey: l, reference: r } = result;
  const flag = failed(l.load) || failed(r.load) ? " (!)" : "";
  return {
    title: `memory: resident size after ${MEMORY_REQUESTS.toLocaleString("en")} get-session requests over ${MEMORY_SESSIONS.toLocaleString("en")} sessions`,
    header: ["figure", "Latchkey MB", "ref MB", "L/ref"],
    rows: [
      ["RSS at start", mb(l.rssAtStart), mb(r.rssAtStart), ratioText(l.rssAtStart / r.rssAtStart)],
      ["RSS after" + flag, mb(l.rssAfter), mb(r.rssAfter), ratioText(result.ratio)],
      [
        "heap used after",
        mb(l.heapUsedAfter),
        mb(r.heapUsedAfter),
        ratioText(l.heapUsedAfter / r.heapUsedAfter),
      ],
      [
        "heap retained (after full GC)",
        mb(l.heapRetained),
        mb(r.heapRetained),
        ratioText(l.heapRetained / r.heapRetained),
      ],
    ],
    notes: [
      "RSS and heap as the server process reports them (process.memoryUsage) right after the load, without forcing a collection; then the heap after two forced full collections. The same esbuild-bundled servers as the cold start. No target: a figure to watch.",
      ...(flag
        ? [
            `(!) non-2xx answers: Latchkey ${JSON.stringify(l.load.statusCodes)}, reference ${JSON.stringify(r.load.statusCodes)}.`,
          ]
        : []),
    ],
  };
}
