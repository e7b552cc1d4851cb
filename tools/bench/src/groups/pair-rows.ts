import type autocannon from "autocannon";
import { failed, type Measurement } from "../load.js";
import { measureInRounds } from "../rounds.js";
import type { ServerSettings } from "../child-server.js";
import { baseSettings, type RunContext, type ServerSpec, type Target } from "../run-context.js";
import type { Table } from "../table.js";
import { atLeast, msText, ratioText, verdictText, type Verdict } from "../targets.js";

/**
 * The two servers of a scale scenario: each on its own SQLite file in WAL mode (see
 * `DatabaseConfig.wal`: these figures write on every request, and would otherwise measure fsync),
 * with `plugins` and, where given, their options.
 */
export function scaleSpecs(
  ctx: RunContext,
  plugins: string[],
  pluginOptions?: Record<string, unknown>,
): Record<"latchkey" | "reference", ServerSpec & { settings: ServerSettings }> {
  const settings = (implementation: "latchkey" | "reference"): ServerSettings => ({
    ...baseSettings(ctx, implementation),
    database: { kind: "sqlite", file: fileOf(ctx, implementation), wal: true },
    plugins,
    ...(pluginOptions ? { pluginOptions } : {}),
  });
  return {
    latchkey: { implementation: "latchkey", settings: settings("latchkey") },
    reference: { implementation: "reference", settings: settings("reference") },
  };
}

function fileOf(ctx: RunContext, implementation: string): string {
  const database = ctx.stores.sqlite(implementation);
  if (database.kind !== "sqlite") throw new TypeError("expected a SQLite file");
  return database.file;
}

/** One figure of a scale scenario measured on both implementations. */
export interface PairRow {
  label: string;
  latchkey: Measurement;
  reference: Measurement;
  /** Latchkey rps / reference rps. */
  rpsRatio: number;
  /** The rps target, or null for a figure printed without one. */
  rpsTarget: Verdict | null;
  /** 1-minute load average when the figure was measured (the machine is shared). */
  loadAverage: number;
}

/** What one figure loads on each server, and its rps target (a minimum ratio), if any. */
export interface PairFigure {
  label: string;
  request: (target: Target, key: "latchkey" | "reference") => Partial<autocannon.Options>;
  minRatio: number | null;
}

/** Measures each figure on both servers in turn (rounds as every group does), one row each. */
export async function measureFigures(
  ctx: RunContext,
  targets: Record<"latchkey" | "reference", Target>,
  figures: readonly PairFigure[],
  loadAverage: () => number,
): Promise<PairRow[]> {
  const rows: PairRow[] = [];
  for (const figure of figures) {
    const { latchkey, reference } = await measureInRounds(ctx, targets, figure.request, figure.label);
    const rpsRatio = latchkey.rps / reference.rps;
    ctx.log(`${figure.label}: ${ratioText(rpsRatio)} (load average ${loadAverage().toFixed(2)})`);
    rows.push({
      label: figure.label,
      latchkey,
      reference,
      rpsRatio,
      rpsTarget: figure.minRatio === null ? null : atLeast(rpsRatio, figure.minRatio, `≥ ${figure.minRatio}x`),
      loadAverage: loadAverage(),
    });
  }
  return rows;
}

/** A scenario's table: rps, p50, p99 of both, the rps ratio and its target, the load average. */
export function pairTable(title: string, rows: readonly PairRow[], notes: string[] = []): Table {
  const header = ["figure", "Latchkey rps", "p50 ms", "p99 ms", "ref rps", "p50 ms", "p99 ms", "rps L/ref", "target", "load avg"];
  const allNotes = [...notes];
  const body = rows.map((row) => {
    for (const [name, m] of [
      ["Latchkey", row.latchkey],
      ["reference", row.reference],
    ] as const) {
      if (failed(m))
        allNotes.push(
          `(!) ${row.label} on ${name}: ${m.non2xx} non-2xx, ${m.errors} errors, ${m.timeouts} timeouts; status codes ${JSON.stringify(m.statusCodes)} (rps counts 2xx only).`,
        );
    }
    return [
      row.label + (failed(row.latchkey) || failed(row.reference) ? " (!)" : ""),
      row.latchkey.rps.toFixed(0),
      msText(row.latchkey.p50),
      msText(row.latchkey.p99),
      row.reference.rps.toFixed(0),
      msText(row.reference.p50),
      msText(row.reference.p99),
      ratioText(row.rpsRatio),
      verdictText(row.rpsTarget),
      row.loadAverage.toFixed(1),
    ];
  });
  return { title, header, rows: body, notes: allNotes };
}
