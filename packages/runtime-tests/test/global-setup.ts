import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { buildSmokeBundle } from "./support/bundle.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Directory holding smoke.mjs and the launchers, built once for every runtime. */
    bundleDir: string;
  }
}

/**
 * Builds the bundle once per run into its own directory under dist/ (inside this package, so
 * the launchers resolve better-sqlite3, pg, … from its node_modules; per run, so concurrent
 * runs never overwrite each other's files), and removes it afterwards.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dist = fileURLToPath(new URL("../dist/", import.meta.url));
  mkdirSync(dist, { recursive: true });
  const bundleDir = mkdtempSync(join(dist, "run-"));
  await buildSmokeBundle(bundleDir);
  project.provide("bundleDir", bundleDir);
  return () => rmSync(bundleDir, { recursive: true, force: true });
}
