#!/usr/bin/env node
// `pnpm typecheck`: the whole workspace as one TypeScript program (tsconfig.check.json).
// That is only the same check as each project's own `tsc -p` while every project's tsconfig
// adds nothing to tsconfig.base.json but allowImportingTsExtensions, so this asserts it first.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const expected = JSON.stringify({ allowImportingTsExtensions: true });
const strays = [];
for (const group of ["packages", "apps", "tools"]) {
  for (const name of readdirSync(join(root, group))) {
    const file = join(root, group, name, "tsconfig.json");
    if (!existsSync(file)) continue;
    const config = JSON.parse(readFileSync(file, "utf8"));
    const own = JSON.stringify(config.compilerOptions ?? {});
    if (config.extends !== "../../tsconfig.base.json" || own !== expected || config.references)
      strays.push(`${group}/${name}/tsconfig.json`);
  }
}
if (strays.length) {
  console.error(
    `[typecheck] these tsconfigs differ from the shared shape, so tsconfig.check.json would not check them as they ask:\n  ${strays.join("\n  ")}`,
  );
  process.exit(1);
}
const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
const res = spawnSync(process.execPath, [tsc, "--noEmit", "-p", join(root, "tsconfig.check.json"), "--pretty"], {
  stdio: "inherit",
  cwd: root,
});
process.exit(res.status ?? 1);
