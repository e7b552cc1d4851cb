import { type UserConfig } from "tsdown";
/**
 * The build every published package shares: ESM with declarations, runtime-neutral (Node, Bun,
 * Deno, workerd), `.js` files. A package names its entries and, when it has to, a platform.
 */
export declare function latchkeyBuild(entry?: UserConfig["entry"], platform?: UserConfig["platform"]): UserConfig;
