import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defineConfig, type UserConfig } from "tsdown";

/**
 * The tsconfig tsgo emits a package's declarations with: the package's own, narrowed to `src`.
 * The package's tsconfig.json also holds its config files, which import the workspace's root
 * `*.shared.ts`; tsgo writes the declarations of files outside the package next to their
 * sources, so with it the root would fill with `.d.ts` files. Kept beside tsconfig.json (its
 * folder is tsgo's root directory) and ignored by git: it is the same for every package.
 */
function declarationConfig(): string {
  const file = join(process.cwd(), "tsconfig.dts.json");
  const text = `${JSON.stringify({ extends: "./tsconfig.json", include: ["src"] })}\n`;
  if (!existsSync(file) || readFileSync(file, "utf8") !== text) writeFileSync(file, text);
  return file;
}

/**
 * The build every published package shares: ESM with declarations, runtime-neutral (Node, Bun,
 * Deno, workerd), `.js` files. A package names its entries and, when it has to, a platform.
 * Declarations are emitted by tsgo (TypeScript's native port, `@typescript/native-preview`,
 * pinned) without type checking, which `pnpm typecheck` does for the whole workspace: the
 * packages build in about half the time tsc took, and installed-smoke type-checks an app
 * against the packed declarations.
 */
export function latchkeyBuild(
  entry: UserConfig["entry"] = ["src/index.ts"],
  platform: UserConfig["platform"] = "neutral",
): UserConfig {
  return defineConfig({
    entry,
    format: "esm",
    tsconfig: declarationConfig(),
    dts: { tsgo: true },
    platform,
    fixedExtension: false,
    clean: true,
  });
}
