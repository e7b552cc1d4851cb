import type { AuthContext, LazySocialProvider, OAuthProvider, SocialProviderEntry } from "@latchkey/core";
import { discoverMetadata } from "./discovery.js";
import type { GenericOAuthConfig } from "./options.js";
import { genericProvider, resolveEndpoints, type ProviderHost } from "./provider.js";

/**
 * A provider configured with `discoveryUrl`, built on first use rather than in `init` (which
 * the reference does): start-up never waits on the network, and a failed or unusable
 * discovery is logged and tried again by the next request instead of disabling the provider
 * until a restart. Meanwhile the provider is "not found" (`PROVIDER_NOT_FOUND`).
 */
function discoveredProvider(c: GenericOAuthConfig, host: ProviderHost): LazySocialProvider {
  const discoveryUrl = c.discoveryUrl!;
  let built: Promise<OAuthProvider | null> | undefined;
  const build = async (): Promise<OAuthProvider | null> => {
    let found;
    try {
      found = await discoverMetadata(discoveryUrl, c.discoveryHeaders);
    } catch (error) {
      host.logError(
        `Provider "${c.providerId}": discovery failed (${error instanceof Error ? error.message : "error"}).`,
      );
      return null;
    }
    const ep = resolveEndpoints(c, found);
    if (!ep.authorizationUrl || (!ep.tokenUrl && !c.getToken)) {
      host.logError(
        `Provider "${c.providerId}": discovery left no authorization endpoint or token exchange.`,
      );
      return null;
    }
    if (c.requireIdTokenVerification && !ep.idToken) {
      host.logError(
        `Provider "${c.providerId}": requires verified ID tokens, but discovery has no issuer and jwks_uri.`,
      );
      return null;
    }
    return genericProvider(c, ep, host);
  };
  return {
    id: c.providerId,
    load: () =>
      (built ??= build().then((provider) => {
        // Only a usable provider is kept; anything else is retried on the next lookup.
        if (!provider) built = undefined;
        return provider;
      })),
  };
}

/** The `socialProviders` entries of the configs, in config order. */
export function providerEntries(configs: GenericOAuthConfig[], ctx: AuthContext): SocialProviderEntry[] {
  const host: ProviderHost = {
    baseURL: () => ctx.baseURL,
    logError: (message) => ctx.logger.error(message),
  };
  return configs.map((c) =>
    c.discoveryUrl ? discoveredProvider(c, host) : genericProvider(c, resolveEndpoints(c), host),
  );
}
