import { build, stop, type BuildOptions, type Metafile } from "esbuild";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { benchModules, BENCH_DIR } from "../build.js";
import type { RunContext } from "../run-context.js";
import type { Implementation } from "../server-config.js";
import type { Table } from "../table.js";
import { atMost, ratioText, verdictText, type Verdict } from "../targets.js";

/** Sizes of one entry's bundle, in bytes. */
export interface BundleSize {
  raw: number;
  minified: number;
  /** The minified bundle gzipped at level 9. */
  gzip: number;
  /** Imports left out of the bundle (always `node:*` or `cloudflare:*` builtins). */
  externals: string[];
  /** Minified bytes per package, largest first. */
  byPackage: Array<[string, number]>;
}

/** What is bundled: the minimal worker, the same with every plugin, and the minimal one with Kysely left out. */
export const BUNDLE_CASES = ["minimal", "every plugin", "minimal, kysely external"] as const;
export type BundleCase = (typeof BUNDLE_CASES)[number];

export interface BundleRow {
  case: BundleCase;
  latchkey: BundleSize;
  reference: BundleSize;
  /** Latchkey min+gzip / reference min+gzip. */
  ratio: number;
  target: Verdict | null;
}

export interface BundleResult {
  rows: BundleRow[];
}

const ENTRY: Record<BundleCase, Record<Implementation, string>> = {
  minimal: { latchkey: "latchkey-minimal", reference: "reference-minimal" },
  "every plugin": { latchkey: "latchkey-all", reference: "reference-all" },
  "minimal, kysely external": { latchkey: "latchkey-minimal", reference: "reference-minimal" },
};

/** Builtins a worker runtime provides (Cloudflare's nodejs_compat, Deno, Bun): external for both. */
const WORKER_EXTERNALS = ["node:*", "cloudflare:*"];

/**
 * Bundles each entry of src/bundles/ as wrangler would for a Worker: esbuild, ESM, platform
 * neutral with the worker/browser conditions and main fields, NODE_ENV production, nothing
 * external but runtime builtins (the same list for both). Latchkey builds from its TypeScript
 * source (`@latchkey/source`); minified output is comparable to a built package's. Legal
 * comments are dropped for both.
 */
export async function runBundle(ctx: RunContext): Promise<BundleResult> {
  const rows: BundleRow[] = [];
  for (const bundleCase of BUNDLE_CASES) {
    const external =
      bundleCase === "minimal, kysely external" ? [...WORKER_EXTERNALS, "kysely"] : WORKER_EXTERNALS;
    const sizes = {} as Record<Implementation, BundleSize>;
    for (const implementation of ["latchkey", "reference"] as const) {
      sizes[implementation] = await measureBundle(ctx, ENTRY[bundleCase][implementation], external);
    }
    const ratio = sizes.latchkey.gzip / sizes.reference.gzip;
    ctx.log(
      `bundle ${bundleCase}: Latchkey ${kb(sizes.latchkey.gzip)} KB, reference ${kb(sizes.reference.gzip)} KB min+gzip (${ratioText(ratio)})`,
    );
    rows.push({
      case: bundleCase,
      ...sizes,
      ratio,
      target: bundleCase === "minimal" ? atMost(ratio, 1 / 3, "≤ 1/3") : null,
    });
  }
  // Ends esbuild's service process, so its CPU time counts as the bench's own, not "other work".
  await stop();
  return { rows };
}

async function measureBundle(ctx: RunContext, entry: string, external: string[]): Promise<BundleSize> {
  const options: BuildOptions = {
    entryPoints: [join(BENCH_DIR, "src/bundles", `${entry}.ts`)],
    absWorkingDir: BENCH_DIR,
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    mainFields: ["browser", "module", "main"],
    conditions: ["workerd", "worker", "browser", "@latchkey/source"],
    external,
    define: { "process.env.NODE_ENV": '"production"' },
    legalComments: "none",
    logLevel: "error",
    plugins: [benchModules(ctx.discovery)],
  };
  const raw = await build(options);
  const minified = await build({ ...options, minify: true });
  const code = minified.outputFiles?.[0]?.contents ?? new Uint8Array();
  return {
    raw: raw.outputFiles?.[0]?.contents.length ?? 0,
    minified: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    externals: externalsOf(minified.metafile),
    byPackage: byPackage(minified.metafile),
  };
}

function externalsOf(metafile: Metafile | undefined): string[] {
  const found = new Set<string>();
  for (const output of Object.values(metafile?.outputs ?? {})) {
    for (const imported of output.imports) if (imported.external) found.add(imported.path);
  }
  return [...found].sort();
}

/** Minified bytes per npm package (or workspace package directory), largest first. */
function byPackage(metafile: Metafile | undefined): Array<[string, number]> {
  const sizes = new Map<string, number>();
  for (const output of Object.values(metafile?.outputs ?? {})) {
    for (const [path, input] of Object.entries(output.inputs)) {
      const inModules = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/g);
      const name = inModules
        ? (inModules[inModules.length - 1] ?? path).replace("node_modules/", "")
        : path
            .replace(/^(\.\.\/)+/, "")
            .split("/")
            .slice(0, 2)
            .join("/");
      sizes.set(name, (sizes.get(name) ?? 0) + input.bytesInOutput);
    }
  }
  return [...sizes].sort((a, b) => b[1] - a[1]);
}

const kb = (bytes: number): string => (bytes / 1024).toFixed(1);

export function bundleTable(result: BundleResult): Table {
  const top = (size: BundleSize): string =>
    size.byPackage
      .slice(0, 6)
      .map(([name, bytes]) => `${name} ${kb(bytes)}`)
      .join(", ");
  const minimal = result.rows.find((r) => r.case === "minimal");
  return {
    title: "bundle: esbuild, edge worker (KB; min+gzip is the figure)",
    header: ["bundle", "Latchkey raw", "min", "min+gzip", "ref raw", "min", "min+gzip", "L/ref", "target"],
    rows: result.rows.map((row) => [
      row.case,
      kb(row.latchkey.raw),
      kb(row.latchkey.minified),
      kb(row.latchkey.gzip),
      kb(row.reference.raw),
      kb(row.reference.minified),
      kb(row.reference.gzip),
      ratioText(row.ratio),
      verdictText(row.target),
    ]),
    notes: [
      "minimal: core + email/password + Kysely adapter (src/bundles/latchkey-minimal.ts) against `better-auth/minimal` + `@better-auth/kysely-adapter` (reference-minimal.ts); the Kysely dialect comes from the worker's environment, so no driver is bundled. Latchkey's adapter takes the dialect and runs its driver with its own SQL; the reference's adapter takes a `Kysely` instance built on it, which brings Kysely's query builder. A dialect built inside the worker (kysely-d1's, say) adds Kysely's SQLite compiler to both; Latchkey also takes the D1 binding itself (`kyselyAdapter(env.DB)`), with no Kysely at all. every plugin: the same plus every plugin package and the reference's counterparts.",
      "esbuild 0.28, ESM, platform neutral, conditions workerd/worker/browser, NODE_ENV production, legal comments dropped, gzip level 9; external for both: `node:*`, `cloudflare:*` (runtime builtins).",
      ...(minimal
        ? [
            `externals actually imported — Latchkey: ${minimal.latchkey.externals.join(", ") || "none"}; reference: ${minimal.reference.externals.join(", ") || "none"}.`,
            `largest parts of the minimal bundles (KB minified) — Latchkey: ${top(minimal.latchkey)}; reference: ${top(minimal.reference)}.`,
          ]
        : []),
      "minimal, kysely external: the same pair with `kysely` left out of both, to show the libraries' own share (no target).",
    ],
  };
}
