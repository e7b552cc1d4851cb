import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";

const src = fileURLToPath(new URL("../../src/", import.meta.url));

/** The launchers, one per runtime that needs one (workerd loads the bundle itself). */
export const LAUNCHERS = { node: "serve-node.mjs", bun: "serve-bun.mjs", deno: "serve-deno.mjs" } as const;

/**
 * Imports the bundle leaves to the runtime: none. Platform "neutral" means no Node builtin is
 * assumed, so an unguarded `node:` import anywhere in core, adapter or plugin fails the build.
 */
function externalImports(metafile: Metafile): string[] {
  return Object.values(metafile.outputs).flatMap((output) =>
    output.imports.filter((i) => i.external).map((i) => i.path),
  );
}

/**
 * Builds `smoke.mjs` (the whole fetch handler: core, adapter, plugins, hono, kysely, noble…)
 * into one ESM file, and the thin per-runtime launchers next to it, into `outDir`.
 */
export async function buildSmokeBundle(outDir: string): Promise<{ bytes: number }> {
  const bundle = await build({
    entryPoints: { smoke: `${src}smoke-app.ts` },
    outdir: outDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    // Workspace packages from their TypeScript sources: no `pnpm build` needed first.
    conditions: ["@latchkey/source", "import", "module", "default"],
    mainFields: ["module", "main"],
    metafile: true,
    logLevel: "silent",
  });
  const external = externalImports(bundle.metafile);
  if (external.length) throw new Error(`smoke bundle imports from the runtime: ${external.join(", ")}`);

  // Launchers keep their packages (better-sqlite3, pg, …) and the bundle external: each runtime
  // resolves those from this package's node_modules, and everyone shares the one bundle file.
  await build({
    entryPoints: {
      [LAUNCHERS.node.replace(".mjs", "")]: `${src}serve/node.ts`,
      [LAUNCHERS.bun.replace(".mjs", "")]: `${src}serve/bun.ts`,
      [LAUNCHERS.deno.replace(".mjs", "")]: `${src}serve/deno.ts`,
    },
    outdir: outDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    packages: "external",
    external: ["bun:sqlite"],
    format: "esm",
    platform: "neutral",
    target: "es2022",
    logLevel: "silent",
  });
  const output = Object.entries(bundle.metafile.outputs).find(([path]) => path.endsWith("smoke.mjs"));
  return { bytes: output?.[1].bytes ?? 0 };
}
