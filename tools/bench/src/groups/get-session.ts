import type { ServerSettings } from "../child-server.js";
import type { FigureName } from "../figures.js";
import { figureRequest } from "../figures.js";
import { failed, type Measurement } from "../load.js";
import { measureInRounds } from "../rounds.js";
import { baseSettings, withServers, type RunContext } from "../run-context.js";
import type { Implementation } from "../server-config.js";
import type { Table } from "../table.js";
import { atLeast, atMost, msText, ratioText, verdictText, type Verdict } from "../targets.js";

/** The get-session setups of issue 5 §1, each a fresh pair of servers. */
export const GET_SESSION_VARIANTS = ["sqlite", "postgres", "cookie-cache", "redis", "bearer", "api-key"] as const;
export type GetSessionVariant = (typeof GET_SESSION_VARIANTS)[number];

const LABELS: Record<GetSessionVariant, string> = {
  sqlite: "SQLite, cookie",
  postgres: "PostgreSQL, cookie",
  "cookie-cache": "SQLite, cookie cache on",
  redis: "SQLite + Redis secondary storage",
  bearer: "SQLite, Bearer (bearer plugin)",
  "api-key": "SQLite, x-api-key (api-key plugin, session from key)",
};

/** The figure each variant loads: the cookie, a Bearer token or an API key. */
const FIGURES: Partial<Record<GetSessionVariant, FigureName>> = {
  bearer: "get-session-bearer",
  "api-key": "get-session-api-key",
};

/** One variant measured on both implementations, or why it was skipped. */
export interface GetSessionRow {
  variant: GetSessionVariant;
  latchkey: Measurement | null;
  reference: Measurement | null;
  /** Latchkey rps / reference rps. */
  rpsRatio: number;
  /** Latchkey p99 / reference p99. */
  p99Ratio: number;
  rpsTarget: Verdict | null;
  p99Target: Verdict | null;
  skipped: string | null;
}

export interface GetSessionResult {
  rows: GetSessionRow[];
}

/** get-session with a valid session on every setup, each a fresh pair of servers loaded in turn. */
export async function runGetSession(ctx: RunContext): Promise<GetSessionResult> {
  const rows: GetSessionRow[] = [];
  for (const variant of GET_SESSION_VARIANTS) {
    const skipped = skipReason(ctx, variant);
    if (skipped) {
      ctx.log(`get-session ${variant}: skipped — ${skipped}`);
      rows.push({
        variant,
        latchkey: null,
        reference: null,
        rpsRatio: NaN,
        p99Ratio: NaN,
        rpsTarget: null,
        p99Target: null,
        skipped,
      });
      continue;
    }
    const figure: FigureName = FIGURES[variant] ?? "get-session";
    const specs = {
      latchkey: { implementation: "latchkey", settings: await settingsFor(ctx, "latchkey", variant) },
      reference: { implementation: "reference", settings: await settingsFor(ctx, "reference", variant) },
    } as const;
    const { latchkey, reference } = await withServers(ctx, specs, (targets) =>
      measureInRounds(
        ctx,
        targets,
        ({ server, user }) => figureRequest(figure, server.baseURL, user),
        `get-session ${variant}`,
      ),
    );
    const rpsRatio = latchkey.rps / reference.rps;
    const p99Ratio = latchkey.p99 / reference.p99;
    rows.push({
      variant,
      latchkey,
      reference,
      rpsRatio,
      p99Ratio,
      rpsTarget: atLeast(rpsRatio, 5, "≥ 5x"),
      p99Target: atMost(p99Ratio, 1 / 3, "≤ 1/3"),
      skipped: null,
    });
  }
  return { rows };
}

function skipReason(ctx: RunContext, variant: GetSessionVariant): string | null {
  if (variant === "postgres") return ctx.stores.unavailable.postgres;
  if (variant === "redis") return ctx.stores.unavailable.redis;
  return null;
}

async function settingsFor(
  ctx: RunContext,
  implementation: Implementation,
  variant: GetSessionVariant,
): Promise<ServerSettings> {
  const settings = baseSettings(ctx, implementation);
  switch (variant) {
    case "sqlite":
      return settings;
    case "postgres":
      return { ...settings, database: await ctx.stores.postgres() };
    case "cookie-cache":
      return { ...settings, cookieCache: true };
    case "redis":
      return { ...settings, redis: ctx.stores.redis() };
    case "bearer":
      return { ...settings, plugins: ["bearer"] };
    case "api-key":
      return { ...settings, plugins: ["api-key"] };
  }
}

/** The group's table: rps and latencies of both, the two ratios and their targets. */
export function getSessionTable(result: GetSessionResult): Table {
  const header = [
    "get-session",
    "Latchkey rps",
    "p50 ms",
    "p99 ms",
    "ref rps",
    "p50 ms",
    "p99 ms",
    "rps L/ref",
    "target",
    "p99 L/ref",
    "target",
  ];
  const notes: string[] = [];
  const rows = result.rows.map((row) => {
    const label = LABELS[row.variant] + (flagged(row) ? " (!)" : "");
    if (row.skipped || !row.latchkey || !row.reference) {
      notes.push(`${LABELS[row.variant]}: skipped — ${row.skipped ?? "not measured"}.`);
      return [label, ...header.slice(1).map(() => "—")];
    }
    for (const [name, m] of [
      ["Latchkey", row.latchkey],
      ["reference", row.reference],
    ] as const) {
      if (failed(m))
        notes.push(
          `(!) ${LABELS[row.variant]} on ${name}: ${m.non2xx} non-2xx, ${m.errors} errors, ${m.timeouts} timeouts; status codes ${JSON.stringify(m.statusCodes)} (rps counts 2xx only).`,
        );
    }
    return [
      label,
      row.latchkey.rps.toFixed(0),
      msText(row.latchkey.p50),
      msText(row.latchkey.p99),
      row.reference.rps.toFixed(0),
      msText(row.reference.p50),
      msText(row.reference.p99),
      ratioText(row.rpsRatio),
      verdictText(row.rpsTarget),
      row.p99Ratio.toFixed(2),
      verdictText(row.p99Target),
    ];
  });
  return { title: "get-session with a valid session", header, rows, notes };
}

function flagged(row: GetSessionRow): boolean {
  return (row.latchkey !== null && failed(row.latchkey)) || (row.reference !== null && failed(row.reference));
}
