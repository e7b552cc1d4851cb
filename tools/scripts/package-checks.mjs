// Checks on each publishable package that publint and attw do not make: the workspace manifest
// keeps its `@latchkey/source` condition and its publishConfig.exports in step, and the packed
// tarball ships every file its manifest names and declares every package its code imports.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";

const SOURCE = "@latchkey/source";

/** The workspace's packages without `"private": true`, each with its directory and manifest. */
export function publishablePackages(root) {
  const globs = readFileSync(join(root, "pnpm-workspace.yaml"), "utf8")
    .split("\n")
    .map((line) => /^\s*-\s*["']?([\w.-]+)\/\*["']?\s*$/.exec(line)?.[1])
    .filter(Boolean);
  const found = [];
  for (const parent of globs) {
    for (const entry of readdirSync(join(root, parent), { withFileTypes: true })) {
      const dir = join(root, parent, entry.name);
      if (!entry.isDirectory() || !existsSync(join(dir, "package.json"))) continue;
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      if (!manifest.private) found.push({ name: manifest.name, version: manifest.version, dir, manifest });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** The problems found in `pkg` (workspace manifest) and `pkg.tarball` (what npm would install). */
export function checkTarball(pkg) {
  const problems = [];
  problems.push(...checkWorkspaceManifest(pkg.manifest, pkg.dir));
  const dir = mkdtempSync(join(tmpdir(), "latchkey-tarball-"));
  try {
    const untar = spawnSync("tar", ["-xzf", pkg.tarball, "-C", dir], { encoding: "utf8" });
    if (untar.status !== 0) return [...problems, `cannot unpack ${pkg.tarball}: ${untar.stderr}`];
    problems.push(...checkPacked(join(dir, "package")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return problems;
}

function checkWorkspaceManifest(manifest, dir) {
  const problems = [];
  if (manifest.type !== "module") problems.push(`"type" is not "module"`);
  if (manifest.sideEffects !== false) problems.push(`"sideEffects" is not false`);
  if (!manifest.files?.includes("dist")) problems.push(`"files" does not list dist`);
  if (!manifest.scripts?.build) problems.push("no build script (nx run-many -t build would skip it)");
  if (!manifest.exports || typeof manifest.exports !== "object") return [...problems, "no exports map"];
  const published = {};
  for (const [subpath, conditions] of Object.entries(manifest.exports)) {
    const keys = Object.keys(conditions ?? {});
    // Condition order matters: the first match wins, so source, then types, then default last.
    if (keys.join() !== [SOURCE, "types", "default"].join()) {
      problems.push(
        `exports["${subpath}"] has conditions ${keys.join(", ")}; expected ${SOURCE}, types, default`,
      );
      continue;
    }
    if (!existsSync(join(dir, conditions[SOURCE])))
      problems.push(`exports["${subpath}"].${SOURCE}: no ${conditions[SOURCE]}`);
    const { [SOURCE]: _source, ...rest } = conditions;
    published[subpath] = rest;
  }
  if (!isDeepStrictEqual(manifest.publishConfig?.exports, published)) {
    problems.push(
      `publishConfig.exports must be "exports" without the ${SOURCE} condition:\n${JSON.stringify(published, null, 2)}`,
    );
  }
  return problems;
}

function checkPacked(dir) {
  const problems = [];
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  if (!existsSync(join(dir, "README.md"))) problems.push("the tarball has no README.md");
  for (const [subpath, conditions] of Object.entries(manifest.exports ?? {})) {
    if (SOURCE in conditions)
      problems.push(`the packed exports["${subpath}"] still has the ${SOURCE} condition`);
    for (const [condition, target] of Object.entries(conditions)) {
      if (condition !== SOURCE && !existsSync(join(dir, target)))
        problems.push(`exports["${subpath}"].${condition}: ${target} is not in the tarball`);
    }
  }
  const declared = new Set([manifest.name]);
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      declared.add(name);
      if (String(range).startsWith("workspace:"))
        problems.push(`${field}.${name} is "${range}" in the tarball`);
    }
  }
  for (const [name, target] of Object.entries(manifest.bin ?? {})) {
    const file = join(dir, target);
    if (!existsSync(file)) problems.push(`bin ${name}: ${target} is not in the tarball`);
    else if (!readFileSync(file, "utf8").startsWith("#!/usr/bin/env node"))
      problems.push(`bin ${name}: no node shebang`);
    else problems.push(...undeclaredImports(file, declared).map((spec) => `bin ${name} imports ${spec}`));
  }
  for (const file of listFiles(join(dir, "dist"))) {
    if (!/\.(m?js|d\.m?ts)$/.test(file)) continue;
    for (const spec of undeclaredImports(file, declared)) {
      problems.push(
        `${file.slice(dir.length + 1)} imports ${spec}, which is in neither dependencies nor peerDependencies`,
      );
    }
  }
  return problems;
}

const IMPORT =
  /^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gms;

/** Bare specifiers `file` imports whose package is not declared (relative imports must exist). */
function undeclaredImports(file, declared) {
  const found = [];
  for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (spec.startsWith(".")) {
      // A declaration file names its sibling's JavaScript path (./x.js for ./x.d.ts).
      const candidates = [spec, spec.replace(/\.(m?)js$/, ".d.$1ts")];
      if (!candidates.some((c) => existsSync(join(file, "..", c)))) found.push(`${spec} (missing file)`);
      continue;
    }
    const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0];
    if (spec.startsWith("node:") || builtinModules.includes(name) || declared.has(name)) continue;
    found.push(spec);
  }
  return found;
}

function listFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}
