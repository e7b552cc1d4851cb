import { execFile } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { parseExtendedDiagnostics, type TscDiagnostics } from "./diagnostics.js";

/** The workspace's tsc (typescript 5.9.3 at the repository root). */
export const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");

const run = promisify(execFile);

/**
 * Writes one app into `dir` (emptied first) with `links` as its node_modules/<name> symlinks,
 * so `@latchkey/*` resolve through each package's own exports the way an installed package does.
 */
export function writeApp(dir: string, files: Record<string, string>, links: Record<string, string>): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  for (const [name, target] of Object.entries(links)) {
    const link = join(dir, "node_modules", name);
    mkdirSync(join(link, ".."), { recursive: true });
    symlinkSync(target, link, "dir");
  }
}

/** `tsc -p dir --extendedDiagnostics --noEmit`, parsed; type errors are returned, not thrown. */
export async function typecheck(dir: string): Promise<TscDiagnostics> {
  const args = [TSC, "-p", dir, "--extendedDiagnostics", "--noEmit", "--pretty", "false"];
  let stdout: string;
  try {
    ({ stdout } = await run(process.execPath, args, { cwd: dir, maxBuffer: 64 * 1024 * 1024 }));
  } catch (error) {
    // tsc exits 2 when the program has errors; it still prints the statistics.
    const failed = error as { stdout?: string; stderr?: string; message: string };
    if (!failed.stdout) throw new Error(`tsc failed in ${dir}: ${failed.stderr || failed.message}`);
    stdout = failed.stdout;
  }
  return parseExtendedDiagnostics(stdout);
}
