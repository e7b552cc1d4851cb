import { defineConfig, type UserConfig } from "tsdown";

/**
 * The build every published package shares: ESM with declarations, runtime-neutral (Node, Bun,
 * Deno, workerd), `.js` files. A package names its entries and, when it has to, a platform.
 */
export function latchkeyBuild(
  entry: UserConfig["entry"] = ["src/index.ts"],
  platform: UserConfig["platform"] = "neutral",
): UserConfig {
  return defineConfig({ entry, format: "esm", dts: { compilerOptions: { customConditions: [] } }, platform, fixedExtension: false, clean: true });
}
