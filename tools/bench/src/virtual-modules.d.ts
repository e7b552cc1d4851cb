// Modules the bench generates at build time (src/plugins.ts) and esbuild resolves (src/build.ts).

declare module "bench:latchkey-plugins" {
  import type { LatchkeyPlugin } from "@latchkey/core";
  /** The discovered plugin factories with these ids, loaded lazily; `overrides[id]` replaces FACTORY_OPTIONS. */
  export function loadPlugins(ids: readonly string[], overrides?: Record<string, unknown>): Promise<LatchkeyPlugin[]>;
}

declare module "bench:reference-plugins" {
  import type { BetterAuthPlugin } from "better-auth";
  /** The reference's counterparts of these Latchkey plugin ids (src/plugins.ts REFERENCE_PLUGINS). */
  export function loadPlugins(ids: readonly string[], overrides?: Record<string, unknown>): Promise<BetterAuthPlugin[]>;
}

declare module "bench:latchkey-all-plugins" {
  import type { LatchkeyPlugin } from "@latchkey/core";
  /** Every discovered plugin, statically imported: what the "all plugins" bundle entry installs. */
  export function allPlugins(): LatchkeyPlugin[];
}

declare module "bench:reference-all-plugins" {
  import type { BetterAuthPlugin } from "better-auth";
  /** The reference's counterparts of every discovered plugin, statically imported. */
  export function allPlugins(): BetterAuthPlugin[];
}
