import { join } from "node:path";
import { BENCH_DIR } from "../build.js";
import { FACTORY_OPTIONS, REFERENCE_PLUGINS, type DiscoveredPlugin } from "../plugins.js";
import type { RunContext } from "../run-context.js";
import { atMost, type Verdict } from "../targets.js";
import {
  appFiles,
  endpointCall,
  PROBES,
  type AppPlugin,
  type AppSpec,
  type ProbeName,
} from "../typecheck/app-source.js";
import { REFERENCE_EXTRA_PLUGINS, SOCIAL_PROVIDERS, TYPECHECK_OPTIONS } from "../typecheck/catalog.js";
import type { TscDiagnostics, TscError } from "../typecheck/diagnostics.js";
import { prepareLatchkeyTypes, workspacePackages, type LatchkeyTypes } from "../typecheck/latchkey-types.js";
import { typecheck, writeApp } from "../typecheck/run-tsc.js";

export { typecheckTable } from "./typecheck-table.js";

/** One tsc run: its statistics, the app's own type errors, and the probes' answers. */
export interface TypecheckRun extends Omit<TscDiagnostics, "raw" | "errors"> {
  /** Type errors in the app (not the probes): an app that does not compile is flagged. */
  errors: TscError[];
  probes: Record<ProbeName, boolean>;
  /** The `auth.api` endpoint the app called for its plugins, if any. */
  endpoint: string | null;
}

/** Which series a row belongs to: plugins added one by one, every package, or the reference alone. */
export type TypecheckSeries = "growth" | "every package" | "reference only";

export interface TypecheckRow {
  series: TypecheckSeries;
  label: string;
  /** Plugins installed (on the reference side for "reference only" rows). */
  plugins: number;
  /** Plugin ids this row installs beyond the row before it in its series. */
  added: string[];
  latchkey: TypecheckRun | null;
  reference: TypecheckRun | null;
  /** Latchkey instantiations / the reference's. */
  ratio: number;
  target: Verdict | null;
}

export interface TypecheckResult {
  latchkeyTypes: LatchkeyTypes;
  floor: TypecheckRun;
  rows: TypecheckRow[];
  /** Latchkey plugin ids the reference has no counterpart for (its side runs without them). */
  unmapped: string[];
}

/** Reference-only rows: the reference's plugin counts up to the 21. */
const REFERENCE_COUNTS = [10, 15, 21];
const SOCIAL_PACKAGE = "@latchkey/social-providers";

/**
 * Type-checks the same app written for each library — createAuth/betterAuth with options and
 * plugins, `auth.api.getSession` reading `.user.email`, `$Infer.Session`, sign-in and one plugin
 * endpoint — with 0…N of the discovered plugins, then every plugin package, then the reference
 * alone up to 21 plugins; one `tsc --extendedDiagnostics` each.
 */
export async function runTypecheck(ctx: RunContext): Promise<TypecheckResult> {
  const root = join(BENCH_DIR, "../..");
  const workspace = workspacePackages(root);
  const discovered = ctx.discovery.plugins;
  const social = workspace.get(SOCIAL_PACKAGE);
  const needed = ["@latchkey/core", "@latchkey/adapter-kysely", ...discovered.map((p) => p.packageName)]
    .concat(social ? [SOCIAL_PACKAGE] : [])
    .flatMap((name) => workspace.get(name) ?? []);
  const latchkeyTypes = await prepareLatchkeyTypes(root, needed, ctx.options.typesFrom, ctx.log);
  ctx.log(`typecheck: Latchkey types from ${latchkeyTypes.from}: ${latchkeyTypes.reason}`);
  const links = Object.fromEntries(needed.map((p) => [p.name, p.dir]));
  const appsDir = join(BENCH_DIR, ".typecheck");
  let count = 0;
  const check = async (spec: Omit<AppSpec, "latchkeySource">): Promise<TypecheckRun> => {
    const dir = join(appsDir, `${String(count++).padStart(2, "0")}-${spec.implementation}`);
    const full = { ...spec, latchkeySource: latchkeyTypes.from === "source" };
    writeApp(dir, appFiles(full), spec.implementation === "latchkey" ? links : {});
    const result = toRun(await typecheck(dir), spec.plugins);
    ctx.log(
      `typecheck ${spec.implementation}, ${spec.plugins.length} plugins${spec.socialProviders ? " + social" : ""}: ` +
        `${result.instantiations} instantiations, check ${result.checkSeconds} s, ${Math.round(result.memoryKB / 1024)} MB` +
        (result.errors.length ? `, ${result.errors.length} type errors` : ""),
    );
    return result;
  };

  const counterparts = discovered.flatMap((p) => referencePlugin(p) ?? []);
  const pair = async (
    series: TypecheckSeries,
    label: string,
    plugins: readonly DiscoveredPlugin[],
    withSocial: boolean,
  ): Promise<TypecheckRow> => {
    const socialProviders = (implementation: string) =>
      withSocial
        ? { ids: SOCIAL_PROVIDERS, from: implementation === "latchkey" ? SOCIAL_PACKAGE : "" }
        : null;
    const latchkey = await check({
      implementation: "latchkey",
      plugins: plugins.map(latchkeyPlugin),
      socialProviders: socialProviders("latchkey"),
    });
    const reference = await check({
      implementation: "reference",
      plugins: plugins.flatMap((p) => referencePlugin(p) ?? []),
      socialProviders: socialProviders("reference"),
    });
    const ratio = latchkey.instantiations / reference.instantiations;
    // Judged only against Latchkey's built types: from source, tsc also checks its implementation.
    const judged = series === "every package" && latchkeyTypes.from === "dist";
    const target = judged ? atMost(ratio, 0.5, "≤ 1/2") : null;
    const added = plugins.slice(rows.at(-1)?.plugins ?? 0).map((p) => p.id);
    return { series, label, plugins: plugins.length, added, latchkey, reference, ratio, target };
  };

  const floor = await check({ implementation: "floor", plugins: [], socialProviders: null });
  const rows: TypecheckRow[] = [];
  for (const k of growthSteps(discovered.length)) {
    const ids = discovered.slice(rows.at(-1)?.plugins ?? 0, k).map((p) => p.id);
    const label = k === 0 ? "0: core only" : `${k}: ${k > ids.length ? "+ " : ""}${ids.join(", ")}`;
    rows.push(await pair("growth", label, discovered.slice(0, k), false));
  }
  const socialText = social ? ` + ${SOCIAL_PROVIDERS.join(", ")} sign-in` : "";
  const every = await pair(
    "every package",
    `every plugin package: ${discovered.length}${socialText}`,
    discovered,
    !!social,
  );
  rows.push({ ...every, added: [] });

  const extras = REFERENCE_EXTRA_PLUGINS.filter((e) => !counterparts.some((c) => c.id === e.id)).map(
    (e): AppPlugin => ({
      id: e.id,
      factory: e.factory,
      from: "better-auth/plugins",
      options: optionsOf(e.factory),
    }),
  );
  const referenceAll = [...counterparts, ...extras];
  let before = counterparts.length;
  for (const n of REFERENCE_COUNTS.filter((n) => n > counterparts.length)) {
    const plugins = referenceAll.slice(0, n);
    const reference = await check({ implementation: "reference", plugins, socialProviders: null });
    rows.push({
      series: "reference only",
      label: `${plugins.length}: reference only`,
      plugins: plugins.length,
      added: plugins.slice(before).map((p) => p.id),
      latchkey: null,
      reference,
      ratio: Number.NaN,
      target: null,
    });
    before = plugins.length;
    if (plugins.length < n) break;
  }
  return { latchkeyTypes, floor, rows, unmapped: ctx.discovery.unmapped };
}

/** 0, 1, …, N plugins while N ≤ 8; past that 0, N/2 and N (a line needs no more points). */
export function growthSteps(n: number): number[] {
  return n <= 8 ? Array.from({ length: n + 1 }, (_, i) => i) : [0, Math.ceil(n / 2), n];
}

function optionsOf(factory: string): string {
  return TYPECHECK_OPTIONS[factory] ?? JSON.stringify(FACTORY_OPTIONS[factory] ?? undefined) ?? "";
}

function latchkeyPlugin(p: DiscoveredPlugin): AppPlugin {
  return { id: p.id, factory: p.factory, from: p.packageName, options: optionsOf(p.factory) };
}

function referencePlugin(p: DiscoveredPlugin): AppPlugin | null {
  const counterpart = REFERENCE_PLUGINS[p.id];
  // The reference's factory gets the options its Latchkey counterpart gets.
  return counterpart
    ? { id: p.id, factory: counterpart.factory, from: counterpart.from, options: optionsOf(p.factory) }
    : null;
}

function toRun(diagnostics: TscDiagnostics, plugins: readonly AppPlugin[]): TypecheckRun {
  const inProbe = (e: TscError): boolean => /(^|[\\/])probe\.ts$/.test(e.file);
  const probes = Object.fromEntries(
    Object.entries(PROBES).map(([name, line]) => [
      name,
      !diagnostics.errors.some((e) => inProbe(e) && e.line === line),
    ]),
  ) as Record<ProbeName, boolean>;
  const { files, types, instantiations, memoryKB, checkSeconds, totalSeconds } = diagnostics;
  return {
    files,
    types,
    instantiations,
    memoryKB,
    checkSeconds,
    totalSeconds,
    errors: diagnostics.errors.filter((e) => !inProbe(e)),
    probes,
    endpoint: endpointCall(plugins)?.call.match(/auth\.api\.(\w+)/)?.[1] ?? null,
  };
}
