import type { GroupResults } from "./bench.js";
import { instantiationRatioText } from "./groups/typecheck-table.js";
import type { Table } from "./table.js";
import { msText, percentText, ratioText, type Verdict } from "./targets.js";

/** One line per target of issue 5 §1 that the run measured: what was measured, and whether it was met. */
export function summaryTable(results: Partial<GroupResults>): Table | null {
  const rows: string[][] = [];
  const line = (target: string, measured: string, verdicts: Array<Verdict | null>): void => {
    const judged = verdicts.filter((v): v is Verdict => v !== null);
    const met = judged.filter((v) => v.met).length;
    const verdict = judged.length === 1 ? (met ? "met" : "NOT met") : `${met} of ${judged.length} met`;
    rows.push([target, measured, judged.length ? verdict : "not measured"]);
  };
  const session = results["get-session"];
  if (session) {
    const measured = session.rows.filter((row) => !row.skipped);
    const names = measured.map((row) => row.variant).join(" / ");
    line(
      `get-session rps ≥ 5x the reference (${names})`,
      measured.map((row) => ratioText(row.rpsRatio)).join(" / "),
      measured.map((row) => row.rpsTarget),
    );
    line(
      `get-session p99 ≤ 1/3 of the reference (${names})`,
      measured.map((row) => row.p99Ratio.toFixed(2)).join(" / "),
      measured.map((row) => row.p99Target),
    );
  }
  const sign = results.sign;
  if (sign) {
    line("sign-in within 10% of the scrypt limit", percentText(sign.share.signIn.latchkey), [
      sign.targets.signIn,
    ]);
    line("sign-up within 10% of the scrypt limit", percentText(sign.share.signUp.latchkey), [
      sign.targets.signUp,
    ]);
    line(
      "event loop never blocked by hashing (loop delay max beside sign-ins < one scrypt)",
      `${msText(sign.latchkey.loopWithSignIns.max)} ms`,
      [sign.targets.loopNeverBlocked],
    );
    line(
      "get-session keeps its p99 while sign-ins run (≤ 2x alone)",
      ratioText(sign.latchkey.getSessionWithSignIns.p99 / sign.latchkey.getSessionAlone.p99),
      [sign.targets.p99Kept],
    );
  }
  const plugins = results.plugins;
  if (plugins) {
    line("every plugin installed keeps ≥ 90% of bare get-session rps", ratioText(plugins.keep.latchkey), [
      plugins.target,
    ]);
  }
  const minimal = results.bundle?.rows.find((row) => row.case === "minimal");
  if (minimal)
    line("minimal edge bundle ≤ 1/3 of the reference (min+gzip)", ratioText(minimal.ratio), [minimal.target]);
  const every = results.typecheck?.rows.find((row) => row.series === "every package");
  if (every)
    line(
      "type-check an app with every plugin ≤ 1/2 of the reference's instantiations",
      instantiationRatioText(every.ratio) +
        (results.typecheck?.latchkeyTypes.from === "source" ? " (Latchkey from source: not judged)" : "") +
        // Until auth.api is typed from the plugins, Latchkey's side has no plugin types to pay for.
        (every.latchkey && !every.latchkey.probes.apiTyped ? " (Latchkey's auth.api not yet typed)" : ""),
      [every.target],
    );
  const cold = results["cold-start"];
  if (cold) line("cold start ≤ 1/2 of the reference (median of 10)", ratioText(cold.ratio), [cold.target]);
  if (!rows.length) return null;
  return {
    title: "targets at a glance (Latchkey against better-auth@1.7.6; details in the tables below)",
    header: ["target", "measured", "verdict"],
    rows,
    notes: [],
  };
}
