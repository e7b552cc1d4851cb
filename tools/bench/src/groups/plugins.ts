import { figureRequest } from "../figures.js";
import { failed, type Measurement } from "../load.js";
import { measureInRounds } from "../rounds.js";
import { REFERENCE_PLUGINS } from "../plugins.js";
import { baseSettings, withServers, type RunContext, type ServerSpec } from "../run-context.js";
import type { Implementation } from "../server-config.js";
import type { Table } from "../table.js";
import { atLeast, msText, ratioText, verdictText, type Verdict } from "../targets.js";

/** get-session on a bare server and on one with every plugin, per implementation. */
export interface PluginsResult {
  /** Latchkey plugin ids installed on the "every plugin" servers. */
  latchkeyPlugins: string[];
  /** The reference's counterparts installed on its "every plugin" server. */
  referencePlugins: string[];
  bare: Record<Implementation, Measurement>;
  all: Record<Implementation, Measurement>;
  /** all rps / bare rps, per implementation. */
  keep: Record<Implementation, number>;
  target: Verdict;
}

/** Share of its bare rps a server with every plugin must keep: routing and hooks must not grow with plugins. */
export const PLUGIN_KEEP = 0.9;

/** Four servers — each implementation bare and with every plugin — loaded in turn, round after round. */
export async function runPlugins(ctx: RunContext): Promise<PluginsResult> {
  const latchkeyPlugins = ctx.discovery.plugins.map((p) => p.id);
  const referencePlugins = latchkeyPlugins.filter((id) => id in REFERENCE_PLUGINS);
  const spec = (implementation: Implementation, plugins: string[]): ServerSpec => ({
    implementation,
    settings: { ...baseSettings(ctx, implementation), plugins },
  });
  const m = await withServers(
    ctx,
    {
      "latchkey bare": spec("latchkey", []),
      "latchkey every plugin": spec("latchkey", latchkeyPlugins),
      "reference bare": spec("reference", []),
      // Only the plugins the reference has a counterpart for (REFERENCE_PLUGINS); the rest are listed as unmapped.
      "reference every plugin": spec("reference", referencePlugins),
    },
    (targets) =>
      measureInRounds(
        ctx,
        targets,
        ({ server, user }) => figureRequest("get-session", server.baseURL, user),
        "get-session",
      ),
  );
  const bare = { latchkey: m["latchkey bare"], reference: m["reference bare"] };
  const all = { latchkey: m["latchkey every plugin"], reference: m["reference every plugin"] };
  const keep = {
    latchkey: all.latchkey.rps / bare.latchkey.rps,
    reference: all.reference.rps / bare.reference.rps,
  };
  return {
    latchkeyPlugins,
    referencePlugins,
    bare,
    all,
    keep,
    target: atLeast(keep.latchkey, PLUGIN_KEEP, `≥ ${PLUGIN_KEEP * 100}% of bare`),
  };
}

/** Bare against every plugin, and Latchkey against the reference on each. */
export function pluginsTable(result: PluginsResult): Table {
  const { bare, all } = result;
  const cell = (m: Measurement): string =>
    `${m.rps.toFixed(0)} / ${msText(m.p99)}` + (failed(m) ? " (!)" : "");
  return {
    title: "get-session: bare server against one with every plugin package",
    header: ["server", "bare rps / p99 ms", "every plugin rps / p99 ms", "every / bare", "target", "plugins"],
    rows: [
      [
        "Latchkey",
        cell(bare.latchkey),
        cell(all.latchkey),
        ratioText(result.keep.latchkey),
        verdictText(result.target),
        result.latchkeyPlugins.join(", ") || "none",
      ],
      [
        "reference",
        cell(bare.reference),
        cell(all.reference),
        ratioText(result.keep.reference),
        "",
        result.referencePlugins.join(", ") || "none",
      ],
      [
        "L/ref",
        ratioText(bare.latchkey.rps / bare.reference.rps),
        ratioText(all.latchkey.rps / all.reference.rps),
        "",
        "",
        "",
      ],
    ],
    notes: [
      "Plugin packages are found, not listed: every packages/* tagged nx `type:plugin` whose entry exports a factory named after the package (src/plugins.ts); the reference runs its counterparts (REFERENCE_PLUGINS).",
    ],
  };
}
