import type { Table } from "../table.js";
import { ratioText, verdictText } from "../targets.js";
import { ISSUE_REFERENCE } from "../typecheck/catalog.js";
import type { TypecheckResult, TypecheckRow, TypecheckRun } from "./typecheck.js";

const thousands = (n: number): string => n.toLocaleString("en-US");
const mb = (run: TypecheckRun): string => (run.memoryKB / 1024).toFixed(0);
const seconds = (run: TypecheckRun): string => run.checkSeconds.toFixed(2);

/** Latchkey / reference instantiations: "0.003x" below 0.1 (two decimals would read 0.00x), else ratioText. */
export function instantiationRatioText(ratio: number): string {
  return ratio < 0.1 ? `${ratio.toFixed(3)}x` : ratioText(ratio);
}

/**
 * Instantiations added per plugin since the previous row of the same side (growth and
 * reference-only rows), so "no faster than linear" reads as a column that does not grow.
 */
export function perPlugin(rows: readonly TypecheckRow[], side: "latchkey" | "reference"): string[] {
  let previous: { plugins: number; instantiations: number } | null = null;
  return rows.map((row) => {
    const run = row[side];
    if (!run || row.series === "every package") return "";
    const step =
      previous && row.plugins > previous.plugins
        ? thousands(
            Math.round((run.instantiations - previous.instantiations) / (row.plugins - previous.plugins)),
          )
        : "";
    previous = { plugins: row.plugins, instantiations: run.instantiations };
    return step;
  });
}

export function typecheckTable(result: TypecheckResult): Table {
  const { rows, floor } = result;
  const latchkeySteps = perPlugin(rows, "latchkey");
  const referenceSteps = perPlugin(rows, "reference");
  const cells = (run: TypecheckRun | null, step: string): string[] =>
    run
      ? [thousands(run.instantiations) + (run.errors.length ? " (!)" : ""), step, seconds(run), mb(run)]
      : ["—", "", "", ""];
  const latchkeyRuns = rows.flatMap((row) => row.latchkey ?? []);
  const probe = (name: "apiTyped" | "inferSession"): string => {
    const yes = latchkeyRuns.filter((run) => run.probes[name]).length;
    return yes === latchkeyRuns.length
      ? "yes"
      : yes === 0
        ? "no"
        : `in ${yes} of ${latchkeyRuns.length} apps`;
  };
  const referenceOnly = rows.filter((row) => row.series === "reference only");
  const largest = [...rows].reverse().find((row) => row.series === "reference only" && row.reference);
  const endpoints = [...new Set(rows.flatMap((row) => [row.latchkey?.endpoint, row.reference?.endpoint]))];
  const failing = rows.flatMap((row) =>
    (["latchkey", "reference"] as const).flatMap((side) => {
      const run = row[side];
      const first = run?.errors[0];
      return run && first
        ? [
            `(!) ${side} app "${row.label}": ${run.errors.length} type error${run.errors.length > 1 ? "s" : ""}, first: ${first.file}(${first.line}) TS${first.code} ${first.message.slice(0, 160)}`,
          ]
        : [];
    }),
  );
  return {
    title: "typecheck: tsc --extendedDiagnostics of the same app (instantiations are the figure)",
    header: [
      "app (plugins)",
      "Latchkey inst.",
      "+/plugin",
      "check s",
      "MB",
      "ref inst.",
      "+/plugin",
      "check s",
      "MB",
      "inst. L/ref",
      "target",
    ],
    rows: rows.map((row, i) => [
      row.label,
      ...cells(row.latchkey, latchkeySteps[i] ?? ""),
      ...cells(row.reference, referenceSteps[i] ?? ""),
      row.latchkey && row.reference
        ? row.ratio < 0.1
          ? `${row.ratio.toFixed(3)}x`
          : ratioText(row.ratio)
        : "",
      verdictText(row.target),
    ]),
    notes: [
      "The app, written for each library as a user would: createAuth / betterAuth with better-sqlite3, a secret, baseURL, email and password, the plugins (and in the last pair row GitHub and Google sign-in); `auth.api.getSession({ headers })` reading `.user.email`; `$Infer.Session`; `auth.api.signInEmail`; one plugin endpoint through `auth.api` " +
        `(${endpoints.filter(Boolean).join(", ") || "none"}, the first installed plugin that has one; none below it). Generated under tools/bench/.typecheck/ (src/typecheck/app-source.ts).`,
      `Latchkey's types: ${result.latchkeyTypes.from === "dist" ? "from" : 'from SOURCE via customConditions ["@latchkey/source"] —'} ${result.latchkeyTypes.reason}` +
        (result.latchkeyTypes.from === "source"
          ? ". tsc then checks Latchkey's own source files too, so its numbers overstate what a user of the built packages pays; the target is not judged."
          : "."),
      `Latchkey \`auth.api\` typed from the installed plugins: ${probe("apiTyped")}; \`auth.$Infer.Session\`: ${probe("inferSession")}` +
        " (where not, the app reads results through a fallback to core's `Session`/`User` rows, and its numbers cannot yet show the cost of typed plugins).",
      `Floor, the same tsconfig and better-sqlite3 with no auth library: ${thousands(floor.instantiations)} instantiations, check ${seconds(floor)} s, ${mb(floor)} MB, ${floor.files} files (every row includes it).`,
      ...(referenceOnly.length
        ? [
            `Reference-only rows add its own plugins from better-auth/plugins, in order: ${referenceOnly.map((row) => `${row.plugins}: + ${row.added.join(", ")}`).join("; ")}.`,
          ]
        : []),
      ...(largest?.reference
        ? [
            `The issue's figure: the reference with ${ISSUE_REFERENCE.plugins} plugins, about ${thousands(ISSUE_REFERENCE.instantiations)} instantiations and ${ISSUE_REFERENCE.checkSeconds} s; here with ${largest.plugins}: ${thousands(largest.reference.instantiations)} instantiations, check ${seconds(largest.reference)} s (check time depends on the machine and its load; instantiations do not).`,
          ]
        : []),
      ...(result.unmapped.length
        ? [
            `Latchkey plugins without a reference counterpart (reference side runs without them): ${result.unmapped.join(", ")}.`,
          ]
        : []),
      "tsc 5.9.3 (the workspace's), `-p app --extendedDiagnostics --noEmit`: strict, skipLibCheck, NodeNext, lib ES2023 + DOM, types []; one run per app. +/plugin: instantiations added per plugin since the row above on the same side. MB: tsc's \"Memory used\".",
      ...failing,
    ],
  };
}
