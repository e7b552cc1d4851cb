import type { NamedProviderFactory } from "./plugin.js";
import { discord } from "./providers/discord.js";
import { github } from "./providers/github.js";

/**
 * Every provider factory of this package, for `socialProviderFactories(allProviders)` when a
 * config names providers by id only. It pulls every provider into the bundle; list the ones
 * in use instead where size matters.
 */
export const allProviders: readonly NamedProviderFactory[] = [discord, github];
