import { APIError, endpoint, oauthFlow } from "@latchkey/core";
import * as v from "valibot";
import { checkServerFetchedEndpoints } from "../endpoint-policy.js";
import { referenceError, SSO_ERROR_CODES } from "../error-codes.js";
import { findProvider } from "../lookup.js";
import { ssoOAuthProvider } from "../oidc-provider.js";
import type { ResolvedSSOOptions } from "../options.js";
import { assertDomainVerified } from "../domain-verification/guard.js";
import { PROVIDER_STATE_KEY, providerReference } from "../provider-reference.js";
import { providerRedirectURI } from "../redirect-uri.js";
import { withRuntimeDiscovery } from "../runtime-discovery.js";
import { additionalParamsSchema } from "./body-schemas.js";

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
  additionalParams: additionalParamsSchema,
  requestSignUp: v.optional(v.boolean()),
  providerType: v.optional(v.picklist(["oidc", "saml"])),
});

/**
 * `POST /sign-in/sso`: finds the provider (by `providerId`, the organization of
 * `organizationSlug`, `domain` or the email's domain), discovers its endpoints when it was
 * stored without them, stores the flow's state, PKCE verifier and provider reference, and
 * answers `{ url, redirect: true }` with the IdP's authorization URL.
 */
export const signInSSO = (options: ResolvedSSOOptions) =>
  endpoint("/sign-in/sso", { method: "POST", body }, async (ctx) => {
    const { additionalParams, providerType, email, organizationSlug, providerId, domain } = ctx.body;
    if (!options.defaultSSO.length && !email && !organizationSlug && !domain && !providerId)
      throw referenceError("BAD_REQUEST", "LOOKUP_INPUT_REQUIRED");
    const found = await findProvider(ctx, options, ctx.body);
    // The reference's second check, reached with `defaultSSO` or an unknown organization slug.
    if (found === "missing")
      throw new APIError("BAD_REQUEST", { message: "providerId, orgId or domain is required" });
    if (!found) throw SSO_ERROR_CODES.fail("PROVIDER_NOT_FOUND_FOR_ISSUER", "NOT_FOUND");
    // A row stored without an OIDC configuration (the reference accepts those, row 120).
    if (found === "unusable")
      throw new APIError("BAD_REQUEST", {
        message: providerType === "oidc" ? "OIDC provider is not configured" : "Invalid SSO provider",
      });
    if (providerType === "saml")
      throw new APIError("BAD_REQUEST", { message: "SAML provider is not configured" });
    assertDomainVerified(options, found);
    const { trustedOrigins } = ctx.context;
    const current = await withRuntimeDiscovery(found, trustedOrigins);
    await checkServerFetchedEndpoints(current.config, trustedOrigins);
    if (!current.config.authorizationEndpoint)
      throw referenceError("BAD_REQUEST", "NO_AUTHORIZATION_ENDPOINT");
    const redirectURI = providerRedirectURI(ctx.context.baseURL, found.providerId, options.redirectURI);
    const provider = ssoOAuthProvider(current, options, redirectURI);
    const result = await oauthFlow.startRedirect(ctx, provider, {
      scopes: ctx.body.scopes,
      loginHint: ctx.body.loginHint || email,
      additionalParams,
      // The callback checks that the provider is still the one, configured as it is now (the stored one).
      serverContext: { [PROVIDER_STATE_KEY]: await providerReference(found) },
    });
    return { url: result.url, redirect: true };
  });
