import { endpoint, isReservedAuthorizationParam, oauthFlow } from "@latchkey/core";
import * as v from "valibot";
import { discoveryError } from "../discovery.js";
import { SSO_ERROR_CODES } from "../error-codes.js";
import { providerFingerprint } from "../fingerprint.js";
import { findProvider } from "../lookup.js";
import { ssoOAuthProvider } from "../oidc-provider.js";
import type { ResolvedSSOOptions } from "../options.js";
import { callbackPathOf } from "./callback.js";
import { assertDomainVerified } from "../domain-verification/guard.js";

const body = v.object({
  callbackURL: v.string(),
  email: v.optional(v.string()),
  organizationSlug: v.optional(v.string()),
  providerId: v.optional(v.string()),
  domain: v.optional(v.string()),
  errorCallbackURL: v.optional(v.string()),
  newUserCallbackURL: v.optional(v.string()),
  scopes: v.optional(v.array(v.string())),
  loginHint: v.optional(v.string()),
  additionalParams: v.optional(v.record(v.string(), v.string())),
  requestSignUp: v.optional(v.boolean()),
  providerType: v.optional(v.picklist(["oidc", "saml"])),
});

/**
 * `POST /sign-in/sso`: finds the provider (by `providerId`, `domain` or the email's domain),
 * stores the flow's state and PKCE verifier, and answers `{ url, redirect: true }` with the
 * IdP's authorization URL. `additionalParams` may not set the OAuth parameters the flow owns.
 */
export const signInSSO = (options: ResolvedSSOOptions) =>
  endpoint("/sign-in/sso", { method: "POST", body }, async (ctx) => {
    const { additionalParams, providerType } = ctx.body;
    const reserved = Object.keys(additionalParams ?? {}).filter(isReservedAuthorizationParam);
    if (reserved.length) throw SSO_ERROR_CODES.fail("RESERVED_AUTHORIZATION_PARAMS", "BAD_REQUEST");
    if (providerType === "saml" || ctx.body.organizationSlug)
      throw SSO_ERROR_CODES.fail("PROVIDER_NOT_FOUND_FOR_ISSUER", "NOT_FOUND");
    const found = await findProvider(ctx, options, ctx.body);
    if (!found) throw SSO_ERROR_CODES.fail("PROVIDER_NOT_FOUND_FOR_ISSUER", "NOT_FOUND");
    assertDomainVerified(options, found);
    // Stored without endpoints (`skipDiscovery`): runtime discovery is not served yet, so refuse rather than fail later.
    if (!found.config.authorizationEndpoint || !found.config.tokenEndpoint)
      throw discoveryError("discovery_incomplete", "The provider has no authorization or token endpoint");
    const provider = ssoOAuthProvider(found, options, callbackPathOf(found.providerId, options));
    const result = await oauthFlow.startRedirect(ctx, provider, {
      scopes: ctx.body.scopes,
      loginHint: ctx.body.loginHint ?? ctx.body.email,
      additionalParams,
      // The callback checks that the provider is still configured as it is now.
      additionalData: {
        ssoProviderReference: {
          providerId: found.providerId,
          authenticationConfigurationFingerprint: await providerFingerprint(found),
        },
      },
    });
    return { url: result.url, redirect: true };
  });
