#!/usr/bin/env node
// The README's two commands land here: `npm run demo` and `npm test` (and `npm run bench`).
// On a machine with only Node 20 and npm it installs the pinned pnpm, the workspace, and
// (for tests) starts the local database servers and the browser the end-to-end test drives.
import { execSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureServices } from "./services.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const pnpmVersion = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")).packageManager.split("@")[1];
const env = {
  ...process.env,
  NX_TUI: "false", NX_NO_CLOUD: "true", NX_DAEMON: "false", NX_SKIP_NX_CACHE: process.env.CI ? "true" : "",
  COREPACK_ENABLE_STRICT: "0", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false",
  DENO_NO_UPDATE_CHECK: "1",
};
// better-sqlite3 compiles from source here: point node-gyp at the installed Node headers.
if (!env.npm_config_nodedir && existsSync("/usr/include/node/node.h")) env.npm_config_nodedir = "/usr";

function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { stdio: "inherit", cwd: root, env, ...opts });
  if (res.status !== 0) {
    console.error(`\n[latchkey] failed: ${cmd} ${args.join(" ")} (exit ${res.status ?? res.signal})`);
    process.exit(res.status ?? 1);
  }
}

/** Runs commands at once; exits with the first failure's status once all have ended. */
async function runSideBySide(commands) {
  const results = await Promise.all(
    commands.map(
      ([cmd, args]) =>
        new Promise((done) => {
          const child = spawn(cmd, args, { stdio: "inherit", cwd: root, env });
          child.on("error", () => done({ cmd, args, status: 1 }));
          child.on("exit", (code, signal) => done({ cmd, args, status: code ?? signal }));
        }),
    ),
  );
  const failed = results.find((res) => res.status !== 0);
  if (failed) {
    console.error(`\n[latchkey] failed: ${failed.cmd} ${failed.args.join(" ")} (exit ${failed.status})`);
    process.exit(typeof failed.status === "number" ? failed.status : 1);
  }
}

function pnpmOnPath() {
  try { return execSync("pnpm --version", { env, stdio: ["ignore", "pipe", "ignore"] }).toString().trim(); }
  catch { return null; }
}

function ensurePnpm() {
  if (pnpmOnPath() === pnpmVersion) return;
  console.log(`[latchkey] installing pnpm@${pnpmVersion}`);
  run("npm", ["install", "--global", `pnpm@${pnpmVersion}`, "--no-audit", "--no-fund"]);
}

const action = process.argv[2] ?? "test";
ensurePnpm();
run("pnpm", ["install", "--frozen-lockfile", "--prefer-offline"]);

if (action === "demo") {
  run("pnpm", ["--filter", "@latchkey/demo", "start"]);
} else if (action === "bench") {
  await ensureServices({ required: false });
  run("pnpm", ["--filter", "@latchkey/bench", "bench", ...process.argv.slice(3)]);
} else if (action === "test") {
  await ensureServices({ required: true });
  run("node", ["tools/scripts/ensure-chromium.mjs"]);
  // Lint and the whole-workspace typecheck are one single-threaded process each: side by side
  // they take the two cores of the CI machine.
  await runSideBySide([
    ["pnpm", ["run", "--silent", "lint"]],
    ["pnpm", ["run", "--silent", "typecheck"]],
  ]);
  // Build, pack and lint every published package, install the tarballs with npm outside the
  // workspace and run the smoke flow there. Before vitest, whose summary stays the last line.
  run("node", ["tools/scripts/installed-smoke.mjs"]);
  run("pnpm", ["exec", "vitest", "run", ...process.argv.slice(3)]);
} else {
  console.error(`unknown action ${action}`);
  process.exit(2);
}
