import { defineConfig, type UserConfig } from "tsdown";

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
  return defineConfig({ entry, format: "esm", dts: { tsgo: true }, platform, fixedExtension: false, clean: true });
}
