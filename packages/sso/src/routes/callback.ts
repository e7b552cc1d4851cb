import {
  callbackErrorRedirect,
  defaultErrorURL,
  endpoint,
  OAUTH_CALLBACK_ERROR_CODES as E,
  oauthFlow,
  parseState,
} from "@latchkey/core";
import * as v from "valibot";
import { providerFingerprint, type ProviderReference } from "../fingerprint.js";
import { providerById } from "../lookup.js";
import { ssoOAuthProvider } from "../oidc-provider.js";
import type { ResolvedSSOOptions } from "../options.js";
import { assertDomainVerified } from "../domain-verification/guard.js";
import { emailInDomains } from "../domains.js";
import { afterSSOSignIn } from "../provisioning.js";
import { restartIdpInitiated } from "./idp-initiated.js";

/** The path (under the base URL) a provider's IdP returns to. */
export const callbackPathOf = (providerId: string, _options: ResolvedSSOOptions): string =>
  `/sso/callback/${encodeURIComponent(providerId)}`;

const query = v.object({
  code: v.optional(v.string()),
  state: v.optional(v.string()),
  error: v.optional(v.string()),
  error_description: v.optional(v.string()),
  iss: v.optional(v.string()),
});

/**
 * `GET /sso/callback/:providerId`: the IdP's authorization response. Checks the state against
 * this browser, exchanges the code (PKCE verifier from the state), verifies the ID token,
 * creates or links the user and sets the session cookie; every outcome is a 302, to the
 * callback URL (or new-user URL) or to the error URL with `?error=`.
 */
export const ssoCallback = (options: ResolvedSSOOptions) =>
  endpoint("/sso/callback/:providerId", { method: "GET" }, async (ctx) => {
    const parsed = v.safeParse(query, ctx.query);
    if (!parsed.success) throw callbackErrorRedirect(ctx, defaultErrorURL(ctx), E.INVALID_CALLBACK_REQUEST);
    const params = parsed.output;
    if (params.state === undefined && params.code)
      await restartIdpInitiated(
        ctx,
        options,
        ctx.params.providerId ?? "",
        callbackPathOf(ctx.params.providerId ?? "", options),
      );
    if (!params.state) throw callbackErrorRedirect(ctx, defaultErrorURL(ctx), E.STATE_NOT_FOUND);
    const state = await parseState(ctx, params.state);
    const errorURL = state.errorURL ?? state.callbackURL ?? defaultErrorURL(ctx);
    const fail = (code: string, description?: string) =>
      callbackErrorRedirect(ctx, errorURL, code, description);
    if (params.error) throw fail(params.error, params.error_description);
    if (!params.code) throw fail(E.NO_CODE);
    const providerId = ctx.params.providerId ?? "";
    const found = await providerById(ctx, options, providerId);
    if (!found) throw fail("invalid_provider", "provider_not_found");
    const reference = state.ssoProviderReference as ProviderReference | undefined;
    if (
      reference &&
      (reference.providerId !== providerId ||
        reference.authenticationConfigurationFingerprint !== (await providerFingerprint(found)))
    )
      throw fail("invalid_state", "SSO_PROVIDER_CHANGED");
    assertDomainVerified(options, found);
    const path = callbackPathOf(providerId, options);
    const observer = { redirectRefused: false };
    const provider = ssoOAuthProvider(found, options, path, observer);
    try {
      return await oauthFlow.completeCallback(ctx, provider, {
        state,
        code: params.code,
        iss: params.iss,
        redirectURI: `${ctx.context.baseURL}${path}`,
        fail,
        // A verified domain covering the email vouches for it: implicit linking as for a trusted provider.
        isTrustedProvider: ({ user }) =>
          found.domainVerified === true && emailInDomains(String(user.email ?? ""), found.domain),
        afterSignIn: (signedIn, identified) => afterSSOSignIn(ctx, options, found, signedIn, identified),
      });
    } catch (error) {
      // The token or UserInfo endpoint answered with a redirect, which is never followed.
      if (observer.redirectRefused) throw fail("oidc_endpoint_redirect");
      throw error;
    }
  });
