import type { LatchkeyPlugin, SocialProviderConfig, SocialProviderFactory } from "@latchkey/core";

/** Any factory of this package (or one shaped like them): options in, provider out, `id` on it. */
export interface NamedProviderFactory {
  (options: never): unknown;
  readonly id: string;
}

/**
 * Lets a reference-style config (`socialProviders: { google: { clientId, clientSecret } }`)
 * build its providers: registers each given factory under its provider id, so core can turn
 * the config into a provider. Pass only the providers in use to keep the bundle small.
 *
 * @example
 * import { github, google, socialProviderFactories } from "@latchkey/social-providers";
 * createAuth({
 *   plugins: [socialProviderFactories([github, google])],
 *   socialProviders: { github: { clientId, clientSecret }, google: { clientId, clientSecret } },
 * });
 */
export function socialProviderFactories(factories: readonly NamedProviderFactory[]): LatchkeyPlugin {
  const registered: Record<string, SocialProviderFactory> = {};
  for (const factory of factories) {
    if (registered[factory.id]) throw new TypeError(`Two provider factories for "${factory.id}".`);
    registered[factory.id] = factory as unknown as (
      config: SocialProviderConfig,
    ) => ReturnType<SocialProviderFactory>;
  }
  return {
    id: "social-provider-factories",
    init: () => ({ socialProviderFactories: registered }),
  };
}
