import { oauthFlow, type EndpointContext } from "@latchkey/core";
import { providerFingerprint } from "../fingerprint.js";
import { providerById } from "../lookup.js";
import { ssoOAuthProvider } from "../oidc-provider.js";
import type { ResolvedSSOOptions } from "../options.js";

/**
 * An IdP-initiated OIDC login (a callback with a `code` and no `state`) for a provider whose
 * `oidcConfig.allowIdpInitiated` is set (a `defaultSSO` provider, or a row whose JSON says so,
 * as the reference reads it): the code is never spent; a normal flow is started instead (state,
 * PKCE, the provider's fingerprint) and the browser sent to the IdP's authorization endpoint,
 * landing on the app's origin afterwards. Returns without answering for any other provider.
 */
export async function restartIdpInitiated(
  ctx: EndpointContext,
  options: ResolvedSSOOptions,
  providerId: string,
  callbackPath: string,
): Promise<void> {
  const found = await providerById(ctx, options, providerId);
  if (!found?.config.allowIdpInitiated || !found.config.authorizationEndpoint) return;
  const provider = ssoOAuthProvider(found, options, callbackPath);
  const { url } = await oauthFlow.startRedirect(ctx, provider, {
    disableRedirect: true,
    additionalData: {
      ssoProviderReference: {
        providerId: found.providerId,
        authenticationConfigurationFingerprint: await providerFingerprint(found),
      },
    },
  });
  throw ctx.redirect(url);
}
