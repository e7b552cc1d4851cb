import { startServer, type ServerName } from "../child-server.js";
import { median as medianOf } from "../load.js";
import { baseSettings, type RunContext } from "../run-context.js";
import type { Table } from "../table.js";
import { atMost, msText, ratioText, verdictText, type Verdict } from "../targets.js";

/** Spawns per server: the median of 10 is the figure. */
export const COLD_STARTS = 10;

const SERVERS = ["latchkey", "reference", "floor", "layer"] as const satisfies readonly ServerName[];

export interface ColdStartResult {
  /**
   * Every spawn-to-first-200 time, in ms, in the order measured; `floor` is a bare node:http
   * server, `layer` the bench's serving layer and SQLite driver with no auth library.
   */
  samples: Record<ServerName, number[]>;
  median: Record<ServerName, number>;
  /** Latchkey median / reference median. */
  ratio: number;
  target: Verdict;
}

/**
 * Process spawn to the first `200 {"ok":true}` on `/api/auth/ok`, polled every 2 ms on a fresh
 * connection. Each implementation's database is prepared by one untimed start (tables made, files
 * in the page cache); the timed starts reuse it without migrating, as a deployed node would.
 * The servers take turns, so a burst of other work hits all of them.
 */
export async function runColdStart(ctx: RunContext): Promise<ColdStartResult> {
  const settings = Object.fromEntries(
    SERVERS.map((name) => [
      name,
      baseSettings(ctx, name === "floor" || name === "layer" ? "latchkey" : name),
    ]),
  ) as Record<ServerName, ReturnType<typeof baseSettings>>;
  for (const name of SERVERS) await (await startServer(name, ctx.entries[name], settings[name])).stop();
  const samples: Record<ServerName, number[]> = { latchkey: [], reference: [], floor: [], layer: [] };
  for (let i = 0; i < COLD_STARTS; i++) {
    for (const name of SERVERS) {
      const server = await startServer(
        name,
        ctx.entries[name],
        { ...settings[name], migrate: false },
        { pollMs: 2 },
      );
      samples[name].push(server.startMs);
      await server.stop();
    }
  }
  const median = {
    latchkey: medianOf(samples.latchkey),
    reference: medianOf(samples.reference),
    floor: medianOf(samples.floor),
    layer: medianOf(samples.layer),
  };
  ctx.log(
    `cold start medians: Latchkey ${msText(median.latchkey)} ms, reference ${msText(median.reference)} ms, bare Node ${msText(median.floor)} ms, serving layer ${msText(median.layer)} ms`,
  );
  const ratio = median.latchkey / median.reference;
  return { samples, median, ratio, target: atMost(ratio, 0.5, "≤ 1/2") };
}

export function coldStartTable(result: ColdStartResult): Table {
  const { samples, median } = result;
  const range = (s: number[]): string => `${msText(Math.min(...s))}–${msText(Math.max(...s))}`;
  const above = (name: "latchkey" | "reference", floor: "floor" | "layer"): number =>
    median[name] - median[floor];
  return {
    title: `cold start: process spawn to first 200 on /ok (median of ${COLD_STARTS})`,
    header: [
      "figure",
      "Latchkey ms",
      "range",
      "ref ms",
      "range",
      "L/ref",
      "target",
      "bare Node ms",
      "serving layer ms",
    ],
    rows: [
      [
        "cold start",
        msText(median.latchkey),
        range(samples.latchkey),
        msText(median.reference),
        range(samples.reference),
        ratioText(result.ratio),
        verdictText(result.target),
        msText(median.floor),
        msText(median.layer),
      ],
      ...(["floor", "layer"] as const).map((floor) => [
        floor === "floor" ? "above bare Node" : "above serving layer",
        msText(above("latchkey", floor)),
        "",
        msText(above("reference", floor)),
        "",
        ratioText(above("latchkey", floor) / above("reference", floor)),
        "",
        "",
        "",
      ]),
    ],
    notes: [
      "Both servers are esbuild bundles (Node 20, ESM, drivers external) run with plain `node` on SQLite with the tables already made; no TypeScript loader in either.",
      "bare Node: a node:http server answering /api/auth/ok, spawned the same way — the part of every start no library can remove.",
      "serving layer: the same @hono/node-server layer (src/servers/serve.ts) and SQLite driver both servers start, answering /ok without an auth library; what is above it is the library's own load, init and first request.",
      `The serving layer alone takes ${ratioText(median.layer / median.reference)} of the reference's cold start: Node 20 loads undici for the first Request/Response and better-sqlite3 loads its native module before any library code runs, so no library served this way can reach ½; the library's own share is the "above serving layer" row.`,
    ],
  };
}
