import { build, stop, type Plugin } from "esbuild";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { virtualModules, type PluginDiscovery } from "./plugins.js";
import type { ServerName } from "./child-server.js";

/** tools/bench: externals left out of the bundles resolve from its node_modules. */
export const BENCH_DIR = fileURLToPath(new URL("..", import.meta.url));

/** Where the server bundles go (gitignored); inside tools/bench so their externals resolve. */
export const BUILD_DIR = join(BENCH_DIR, ".build");

/**
 * Database and Redis drivers stay external in both server bundles: better-sqlite3 is native,
 * and the same driver modules load from node_modules for either implementation.
 */
const SERVER_EXTERNALS = ["better-sqlite3", "pg", "ioredis"];

/** Resolves `bench:*` imports to the modules generated from the plugin discovery. */
export function benchModules(discovery: PluginDiscovery): Plugin {
  const sources = virtualModules(discovery);
  return {
    name: "bench-modules",
    setup(b) {
      b.onResolve({ filter: /^bench:/ }, (args) => ({ path: args.path, namespace: "bench" }));
      b.onLoad({ filter: /.*/, namespace: "bench" }, (args) => {
        const contents = sources[args.path];
        if (contents === undefined) return { errors: [{ text: `unknown bench module ${args.path}` }] };
        return { contents, loader: "js", resolveDir: BENCH_DIR };
      });
    },
  };
}

/**
 * Bundles each server entry (src/servers/<implementation>.ts) with esbuild, the same settings
 * for both: Node 20, ESM, drivers external, Latchkey from its TypeScript source. Both then run
 * on plain `node` — no TypeScript loader in either process, so cold start and memory compare
 * the libraries, not tsx — and plugins sit in lazily imported chunks, so a bare server never
 * loads them. Returns the entry file of each.
 */
export async function buildServers(discovery: PluginDiscovery): Promise<Record<ServerName, string>> {
  rmSync(BUILD_DIR, { recursive: true, force: true });
  const entries = {} as Record<ServerName, string>;
  for (const implementation of ["latchkey", "reference", "floor", "layer"] as const) {
    const outdir = join(BUILD_DIR, implementation);
    await build({
      entryPoints: [join(BENCH_DIR, "src/servers", `${implementation}.ts`)],
      absWorkingDir: BENCH_DIR,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      conditions: ["@latchkey/source"],
      external: SERVER_EXTERNALS,
      // CommonJS dependencies inside an ESM bundle still call require() for Node builtins.
      banner: {
        js: 'import { createRequire as __benchRequire } from "node:module"; const require = __benchRequire(import.meta.url);',
      },
      outdir,
      logLevel: "error",
      plugins: [benchModules(discovery)],
    });
    entries[implementation] = join(outdir, `${implementation}.js`);
  }
  // Ends esbuild's service process, so its CPU time counts as the bench's own, not "other work".
  await stop();
  return entries;
}
