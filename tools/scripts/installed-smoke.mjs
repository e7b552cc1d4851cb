#!/usr/bin/env node
// What users install is what is tested: builds every publishable package, packs each with pnpm
// (as `changeset publish` would), lints the tarballs (publint, attw, package-checks.mjs), installs
// them with npm into a scratch app outside the workspace, and runs the smoke flow there with plain
// Node, so nothing resolves through the `@latchkey/source` condition or the workspace.
//
//   node tools/scripts/installed-smoke.mjs [--skip-build]
//
// The scratch app lives in os.tmpdir() and is kept between runs: its third-party dependencies
// are reused (better-sqlite3, which compiles from source, is copied from the workspace's build);
// the @latchkey packages are removed and installed again from this run's tarballs every time.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { checkTarball, publishablePackages } from "./package-checks.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const started = Date.now();
// One scratch app per checkout, so runs from two clones or worktrees on one machine never meet.
const appDir = join(
  tmpdir(),
  `latchkey-installed-smoke-${createHash("sha256").update(root).digest("hex").slice(0, 8)}`,
);
const packDir = join(appDir, "tarballs");

/**
 * The smoke flow's SQL driver. It compiles from source here (~100 s of both cores), so the
 * scratch app gets a copy of the workspace's own build of this version (with the two packages it
 * loads at run time) instead of an npm install of it; npm installs it only when the workspace has
 * another version.
 */
const SQLITE_DRIVER = { name: "better-sqlite3", version: "12.11.1", runtime: ["bindings", "file-uri-to-path"] };

/** Third-party packages the scratch app installs beside the tarballs (the smoke flow's own needs). */
const APP_DEPENDENCIES = {
  "@hono/node-server": "2.1.8", // serves auth.handler on 127.0.0.1
  valibot: "1.5.0", // the smoke plugin's input schemas
  ioredis: "6.0.0", // @latchkey/redis-storage's peer, pinned (npm would pick the newest)
  kysely: "0.28.18", // @latchkey/adapter-kysely's optional peer: its declarations name Kysely's types
  "@types/node": "20.19.25", // for tsc, as any Node app has
};

const log = (line) => console.log(`[installed-smoke] ${line}`);
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { stdio: "inherit", cwd: root, ...opts });
  if (res.status !== 0) fail(`${cmd} ${args.join(" ")} exited with ${res.status ?? res.signal}`);
  return res;
}

function fail(message) {
  console.error(`[installed-smoke] FAILED: ${message}`);
  process.exit(1);
}

const packages = publishablePackages(root);
log(`${packages.length} publishable packages: ${packages.map((p) => p.name).join(", ")}`);

// 1. Build (nx runs `^build` first, so dependencies build before their dependents).
if (!process.argv.includes("--skip-build")) {
  const t = Date.now();
  run("pnpm", [
    "exec",
    "nx",
    "run-many",
    "-t",
    "build",
    `--projects=${packages.map((p) => p.name).join(",")}`,
    "--parallel=2",
    "--outputStyle=static",
  ]);
  log(`built in ${seconds(t)}`);
}

// 2. Pack, as the release does (pnpm applies publishConfig and rewrites workspace: ranges).
let t = Date.now();
rmSync(packDir, { recursive: true, force: true });
mkdirSync(packDir, { recursive: true });
// Three at a time: a pack is mostly pnpm starting up.
await eachAtOnce(packages, 3, async (pkg) => {
  const packed = await capture("pnpm", ["pack", "--pack-destination", packDir], pkg.dir);
  if (packed.code !== 0) fail(`pnpm pack in ${pkg.dir} exited with ${packed.code}\n${packed.output}`);
  pkg.tarball = join(packDir, `${pkg.name.replace(/^@/, "").replace("/", "-")}-${pkg.version}.tgz`);
  if (!existsSync(pkg.tarball)) fail(`pnpm pack made no ${pkg.tarball}`);
});
log(`packed ${packages.length} tarballs in ${seconds(t)} (${packDir})`);

// 3. Install into the scratch app with npm: the tarballs plus what an app beside them would have.
//    npm runs in the background while the tarballs are linted (step 4).
t = Date.now();
mkdirSync(appDir, { recursive: true });
const dependencies = { ...APP_DEPENDENCIES };
const builtDriver = workspaceBuild(SQLITE_DRIVER);
if (!builtDriver) dependencies[SQLITE_DRIVER.name] = SQLITE_DRIVER.version;
for (const pkg of packages) dependencies[pkg.name] = `file:${pkg.tarball}`;
writeFileSync(
  join(appDir, "package.json"),
  `${JSON.stringify({ name: "latchkey-installed-smoke", private: true, type: "module", dependencies }, null, 2)}\n`,
);
// Whatever is under node_modules/@latchkey afterwards came from this run's tarballs.
rmSync(join(appDir, "node_modules/@latchkey"), { recursive: true, force: true });
rmSync(join(appDir, "package-lock.json"), { force: true });
// npm's own variables from `npm test` (prefix, package paths, ...) must not leak into this install.
const npmEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) || key === "npm_config_nodedir"),
);
delete npmEnv.NODE_OPTIONS;
if (!npmEnv.npm_config_nodedir && existsSync("/usr/include/node/node.h")) npmEnv.npm_config_nodedir = "/usr";
const installed = new Promise((done) => {
  const npm = spawn("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
    cwd: appDir,
    env: npmEnv,
    stdio: ["ignore", "inherit", "inherit"],
  });
  npm.on("error", (error) => done(`npm install: ${error.message}`));
  npm.on("exit", (code, signal) => done(code === 0 ? null : `npm install exited with ${code ?? signal}`));
});

// 4. Lint the tarballs: our own checks, publint (strict) and attw (ESM-only profile: node16
//    from ESM and bundler must resolve; node10 and require() are not supported by design).
const lintStart = Date.now();
const bin = (name) => join(root, "node_modules/.bin", name);
const problems = [];
await eachAtOnce(packages, 2, async (pkg) => {
  for (const problem of checkTarball(pkg)) problems.push(`${pkg.name}: ${problem}`);
  const [publint, attw] = await Promise.all([
    capture(bin("publint"), ["run", pkg.tarball, "--strict", "--level", "warning"]),
    capture(bin("attw"), [pkg.tarball, "--profile", "esm-only", "--format", "ascii"]),
  ]);
  if (publint.code !== 0) problems.push(`${pkg.name}: publint\n${publint.output}`);
  if (attw.code !== 0) problems.push(`${pkg.name}: attw\n${attw.output}`);
});
problems.sort();
if (problems.length) fail(`package lint\n  ${problems.join("\n  ")}`);
log(`package checks, publint and attw clean on ${packages.length} tarballs in ${seconds(lintStart)}`);

const installError = await installed;
if (installError) fail(installError);
// After npm, which removes what its package.json does not name.
if (builtDriver) {
  for (const [name, dir] of builtDriver) {
    const target = join(appDir, "node_modules", name);
    rmSync(target, { recursive: true, force: true });
    cpSync(dir, target, { recursive: true, dereference: true });
  }
}
for (const pkg of packages) {
  const dir = join(appDir, "node_modules", pkg.name);
  if (lstatSync(dir).isSymbolicLink()) fail(`${pkg.name} is a symlink in the scratch app, not an install`);
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  if (manifest.version !== pkg.version)
    fail(`${pkg.name}: installed ${manifest.version}, packed ${pkg.version}`);
}
log(`installed into ${appDir} in ${seconds(t)}`);

// 5. Types as a user gets them: the runtime suite's auth configuration and plugin (the sources of
//    packages/runtime-tests) and an import of every entry, compiled by tsc against the installed
//    declarations (NodeNext, strict, skipLibCheck off). The emitted JavaScript is what step 6 runs.
t = Date.now();
const smokeDir = join(appDir, "smoke");
rmSync(smokeDir, { recursive: true, force: true });
mkdirSync(join(smokeDir, "src"), { recursive: true });
for (const name of ["smoke-auth.ts", "smoke-plugin.ts"]) {
  cpSync(join(root, "packages/runtime-tests/src", name), join(smokeDir, "src", name));
}
const entries = packages.flatMap((pkg) =>
  Object.keys(pkg.manifest.exports).map((subpath) =>
    subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
  ),
);
writeFileSync(
  join(smokeDir, "src/entries.ts"),
  entries.map((spec, i) => `import * as entry${i} from "${spec}";\n`).join("") +
    `export const entries = { ${entries.map((spec, i) => `"${spec}": entry${i}`).join(", ")} };\n`,
);
const compilerOptions = {
  target: "ES2022",
  lib: ["ES2023", "DOM", "DOM.Iterable"],
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  skipLibCheck: false,
  types: ["node"],
  rootDir: "src",
  outDir: "out",
};
writeFileSync(
  join(smokeDir, "tsconfig.json"),
  JSON.stringify({ compilerOptions, include: ["src"] }, null, 2),
);
const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
run(process.execPath, [tsc, "-p", join(smokeDir, "tsconfig.json")], { cwd: smokeDir });
log(
  `typechecked ${entries.length} entries and the smoke plugin against the installed types in ${seconds(t)}`,
);

// 6. The smoke flow (installed-smoke/flow.mjs), run by plain Node from inside the scratch app.
cpSync(join(root, "tools/scripts/installed-smoke/flow.mjs"), join(smokeDir, "flow.mjs"));
const bins = packages.flatMap((p) => Object.keys(p.manifest.bin ?? {}));
run(process.execPath, [join(smokeDir, "flow.mjs"), ...packages.map((p) => p.name)], {
  cwd: appDir,
  env: {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: tmpdir(),
    LATCHKEY_SMOKE_BINS: bins.join(","),
  },
});

log(`done in ${seconds(started)}: the packed packages install with npm, typecheck and pass the smoke flow`);

/**
 * The workspace's installed copy of `driver` and its run-time packages (name → directory), or
 * null when it is another version or not built.
 */
function workspaceBuild(driver) {
  try {
    const fromAdapter = createRequire(join(root, "packages/adapter-kysely/package.json"));
    const driverDir = dirname(fromAdapter.resolve(`${driver.name}/package.json`));
    const manifest = JSON.parse(readFileSync(join(driverDir, "package.json"), "utf8"));
    if (manifest.version !== driver.version || !existsSync(join(driverDir, "build/Release"))) return null;
    const found = [[driver.name, driverDir]];
    let from = createRequire(join(driverDir, "package.json"));
    for (const name of driver.runtime) {
      const dir = dirname(from.resolve(`${name}/package.json`));
      found.push([name, dir]);
      from = createRequire(join(dir, "package.json"));
    }
    return found;
  } catch {
    return null;
  }
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function eachAtOnce(items, limit, work) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: limit }, lane));
}

/** Runs a command to completion with its output collected (stdout and stderr together). */
function capture(cmd, args, cwd = root) {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => done({ code: -1, output: error.message }));
    child.on("exit", (code) => done({ code, output }));
  });
}
