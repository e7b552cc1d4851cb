import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LAUNCHERS } from "./bundle.ts";
import { startServer, type RunningServer } from "./process.ts";
import { workerdConfig, WORKERD_SOCKETS } from "./workerd-config.ts";

const packageRoot = fileURLToPath(new URL("../../", import.meta.url));
const bin = (name: string): string => join(packageRoot, "node_modules", ".bin", name);

/**
 * A clean environment: no NODE_ENV=test from vitest (core relaxes checks under it, and only
 * some runtimes could read it), no update checks, no telemetry, no colour codes in the logs.
 */
function childEnv(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/tmp",
    NO_COLOR: "1",
    DENO_NO_UPDATE_CHECK: "1",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_SEND_METRICS: "false",
  };
}

/** The bundle on Node (this very Node binary), the SQL instance on a better-sqlite3 file if given. */
export function startNode(bundleDir: string, sqlitePath?: string): Promise<RunningServer> {
  return startServer({
    command: process.execPath,
    args: [join(bundleDir, LAUNCHERS.node), ...(sqlitePath ? [sqlitePath] : [])],
    cwd: packageRoot,
    env: childEnv(),
    announcement: "stdout",
  });
}

/** The bundle on Bun from node_modules/.bin, the SQL instance on a bun:sqlite file. */
export function startBun(bundleDir: string, sqlitePath: string): Promise<RunningServer> {
  return startServer({
    command: bin("bun"),
    args: [join(bundleDir, LAUNCHERS.bun), sqlitePath],
    cwd: packageRoot,
    env: childEnv(),
    announcement: "stdout",
  });
}

/**
 * The bundle on Deno from node_modules/.bin, the SQL instance on PostgreSQL via npm's pg. Deno
 * resolves `pg` from this package's node_modules (package.json present: no download, no lock
 * file); permissions stay narrow: loopback network, env (pg reads PG* variables), the bundle.
 */
export function startDeno(bundleDir: string, postgresURL: string): Promise<RunningServer> {
  return startServer({
    command: bin("deno"),
    args: [
      "run",
      "--no-prompt",
      "--no-lock",
      "--node-modules-dir=manual",
      "--allow-net=127.0.0.1",
      "--allow-env",
      `--allow-read=${bundleDir}`,
      join(bundleDir, LAUNCHERS.deno),
      postgresURL,
    ],
    cwd: packageRoot,
    env: childEnv(),
    announcement: "stdout",
  });
}

/**
 * The bundle as a module worker on workerd from node_modules/.bin, from a generated config: one
 * socket without compatibility flags (a plain edge isolate) and one with `nodejs_compat`.
 * Sockets bind port 0; workerd reports the ports on its control fd.
 */
export function startWorkerd(bundleDir: string): Promise<RunningServer> {
  const config = join(bundleDir, "workerd.capnp");
  const disk = join(bundleDir, "d1");
  mkdirSync(disk, { recursive: true });
  writeFileSync(config, workerdConfig("smoke.mjs", disk));
  return startServer({
    command: bin("workerd"),
    // --experimental: the bundled D1 worker is marked experimental in this workerd release.
    args: ["serve", config, "--experimental", "--control-fd=3"],
    cwd: bundleDir,
    env: childEnv(),
    announcement: "control-fd",
    sockets: Object.values(WORKERD_SOCKETS),
  });
}
