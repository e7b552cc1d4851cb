import { oauthFlow, type EndpointContext } from "@latchkey/core";
import { checkServerFetchedEndpoints } from "../endpoint-policy.js";
import { providerById } from "../lookup.js";
import { ssoOAuthProvider } from "../oidc-provider.js";
import type { ResolvedSSOOptions } from "../options.js";
import { PROVIDER_STATE_KEY, providerReference } from "../provider-reference.js";
import { providerRedirectURI } from "../redirect-uri.js";
import { withRuntimeDiscovery } from "../runtime-discovery.js";

/**
 * An IdP-initiated OIDC login (a callback with a `code` and no `state`) for a provider whose
 * `oidcConfig.allowIdpInitiated` is set (a `defaultSSO` provider, or a row whose JSON says so,
 * as the reference reads it): the code is never spent; a normal flow is started instead (state,
 * PKCE, the provider reference) and the browser sent to the IdP's authorization endpoint,
 * landing on the app's origin afterwards. Returns without answering for any other provider.
 */
export async function restartIdpInitiated(
  ctx: EndpointContext,
  options: ResolvedSSOOptions,
  providerId: string,
): Promise<void> {
  const found = await providerById(ctx, options, providerId);
  if (!found?.config.allowIdpInitiated) return;
  const { trustedOrigins } = ctx.context;
  const current = await withRuntimeDiscovery(found, trustedOrigins);
  await checkServerFetchedEndpoints(current.config, trustedOrigins);
  if (!current.config.authorizationEndpoint) return;
  const redirectURI = providerRedirectURI(ctx.context.baseURL, providerId, options.redirectURI);
  const provider = ssoOAuthProvider(current, options, redirectURI);
  const { url } = await oauthFlow.startRedirect(ctx, provider, {
    disableRedirect: true,
    serverContext: { [PROVIDER_STATE_KEY]: await providerReference(found) },
  });
  throw ctx.redirect(url);
}
