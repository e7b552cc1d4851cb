import { discover } from "./discovery.js";
import type { FoundProvider } from "./oidc-provider.js";

/**
 * A provider stored without its authorization, token or JWKS endpoint (registered with
 * `skipDiscovery`, or written by hand) gets them from OIDC discovery at sign-in and at the
 * callback, as the reference does; the stored row is left as it is, so the fingerprint of the
 * flow does not change. Discovery failures throw the discovery codes.
 */
export async function withRuntimeDiscovery(
  found: FoundProvider,
  trustedOrigins: readonly string[],
): Promise<FoundProvider> {
  const { config } = found;
  if (config.authorizationEndpoint && config.tokenEndpoint && config.jwksEndpoint) return found;
  // The stored token endpoint method stands, as the reference keeps it: discovery only fills gaps.
  const discovered = await discover({ ...config, issuer: found.issuer }, trustedOrigins, { atRuntime: true });
  return {
    ...found,
    config: {
      ...config,
      authorizationEndpoint: discovered.authorizationEndpoint,
      tokenEndpoint: discovered.tokenEndpoint,
      tokenEndpointAuthentication: discovered.tokenEndpointAuthentication,
      userInfoEndpoint: discovered.userInfoEndpoint,
      jwksEndpoint: discovered.jwksEndpoint,
    },
  };
}
