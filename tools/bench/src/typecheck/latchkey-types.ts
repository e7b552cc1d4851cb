import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

/** How the Latchkey apps resolve `@latchkey/*` types, and why. */
export interface LatchkeyTypes {
  from: "dist" | "source";
  /** Said in the report: what was built, or why the sources were used. */
  reason: string;
}

/** Where the type-check figure takes Latchkey's types: built if needed (auto), built, or sources. */
export type TypesMode = "auto" | "dist" | "source";

/** A workspace package under packages/, by name. */
export interface WorkspacePackage {
  name: string;
  dir: string;
}

/** Every packages/* with a package.json, by package name. */
export function workspacePackages(root: string): Map<string, WorkspacePackage> {
  const found = new Map<string, WorkspacePackage>();
  const packagesDir = join(root, "packages");
  for (const entry of readdirSync(packagesDir).sort()) {
    const dir = join(packagesDir, entry);
    try {
      const { name } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string };
      found.set(name, { name, dir });
    } catch {
      // not a package
    }
  }
  return found;
}

/** Why the package's `types` export cannot serve as is (missing or older than its src/), or null. */
export function distProblem(pkg: WorkspacePackage): string | null {
  const manifest = JSON.parse(readFileSync(join(pkg.dir, "package.json"), "utf8")) as {
    exports?: Record<string, { types?: string } | undefined>;
  };
  const types = manifest.exports?.["."]?.types;
  if (!types) return "no `types` export";
  const file = join(pkg.dir, types);
  if (!existsSync(file)) return `${types} not built`;
  const newest = newestMtime(join(pkg.dir, "src"));
  return newest > statSync(file).mtimeMs ? `${types} older than src/` : null;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const run = promisify(execFile);

/**
 * Prefers what a user gets, each package's built `types` export: builds the packages whose dist
 * is missing or stale (`pnpm --filter … build`, tsdown), and falls back to the TypeScript
 * sources through the `@latchkey/source` condition when that fails or `mode` is "source".
 */
export async function prepareLatchkeyTypes(
  root: string,
  packages: readonly WorkspacePackage[],
  mode: TypesMode,
  log: (line: string) => void,
): Promise<LatchkeyTypes> {
  const names = packages.map((p) => p.name).join(", ");
  if (mode === "source") return { from: "source", reason: "--types=source" };
  const stale = packages.filter((p) => distProblem(p));
  let built = "";
  if (stale.length) {
    log(`typecheck: building ${stale.map((p) => `${p.name} (${distProblem(p)})`).join(", ")}`);
    try {
      await run("pnpm", [...stale.flatMap((p) => ["--filter", p.name]), "build"], {
        cwd: root,
        maxBuffer: 64 * 1024 * 1024,
      });
      built = `, built for this run: ${stale.map((p) => p.name).join(", ")}`;
    } catch (error) {
      log(`typecheck: build failed: ${(error as Error).message.split("\n").slice(0, 5).join(" / ")}`);
    }
  }
  const left = packages.flatMap((p) => {
    const problem = distProblem(p);
    return problem ? [`${p.name}: ${problem}`] : [];
  });
  if (!left.length)
    return { from: "dist", reason: `each package's \`types\` export (tsdown dist of ${names}${built})` };
  if (mode === "dist") throw new Error(`--types=dist: no usable dist for ${left.join("; ")}`);
  return { from: "source", reason: `dist unusable (${left.join("; ")})` };
}
