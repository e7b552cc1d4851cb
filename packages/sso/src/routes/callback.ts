import {
  APIError,
  callbackErrorRedirect,
  defaultErrorURL,
  endpoint,
  OAUTH_CALLBACK_ERROR_CODES as E,
  oauthFlow,
  parseState,
  type EndpointContext,
  type OAuthStateData,
} from "@latchkey/core";
import * as v from "valibot";
import { tokenEndpointAuth } from "../client-assertion.js";
import { checkServerFetchedEndpoints } from "../endpoint-policy.js";
import { providerById } from "../lookup.js";
import { ssoOAuthProvider, type RequestObserver } from "../oidc-provider.js";
import { databaseSessionsRequired, resolveInTransaction } from "../user-resolution.js";
import type { ResolvedSSOOptions } from "../options.js";
import { assertDomainVerified } from "../domain-verification/guard.js";
import { emailInDomains } from "../domains.js";
import { afterSSOSignIn } from "../provisioning.js";
import {
  isCurrentReference,
  parseProviderReference,
  PROVIDER_STATE_KEY,
  type ProviderReference,
} from "../provider-reference.js";
import { providerRedirectURI } from "../redirect-uri.js";
import { withRuntimeDiscovery } from "../runtime-discovery.js";
import { withPlainClientSecret } from "../secret-storage.js";
import { restartIdpInitiated } from "./idp-initiated.js";

const query = v.object({
  code: v.optional(v.string()),
  state: v.optional(v.string()),
  error: v.optional(v.string()),
  error_description: v.optional(v.string()),
  iss: v.optional(v.string()),
});

type CallbackQuery = v.InferOutput<typeof query>;

/** The provider reference a flow's state carries (`serverContext.ssoProviderReference`), or null. */
const referenceOf = (state: OAuthStateData): ProviderReference | null =>
  parseProviderReference((state.serverContext as Record<string, unknown> | undefined)?.[PROVIDER_STATE_KEY]);

/** Reads the query and the state; every failure is a redirect to the error page. */
async function openFlow(ctx: EndpointContext): Promise<{ params: CallbackQuery; state: OAuthStateData }> {
  const parsed = v.safeParse(query, ctx.query);
  if (!parsed.success) throw callbackErrorRedirect(ctx, defaultErrorURL(ctx), E.INVALID_CALLBACK_REQUEST);
  if (!parsed.output.state) throw callbackErrorRedirect(ctx, defaultErrorURL(ctx), E.STATE_NOT_FOUND);
  return { params: parsed.output, state: await parseState(ctx, parsed.output.state) };
}

/**
 * The callback of one SSO sign-in, once the provider id is known (from the path, or from the
 * state at the shared callback): checks the provider still matches the reference the sign-in
 * stored, exchanges the code with the provider's client authentication, verifies the ID
 * token, and signs the user in. Every outcome is a 302.
 */
async function finishSSOCallback(
  ctx: EndpointContext,
  options: ResolvedSSOOptions,
  providerId: string,
  params: CallbackQuery,
  state: OAuthStateData,
): Promise<unknown> {
  const errorURL = state.errorURL ?? state.callbackURL ?? defaultErrorURL(ctx);
  const fail = (code: string, description?: string) =>
    callbackErrorRedirect(ctx, errorURL, code, description);
  if (params.error) throw fail(params.error, params.error_description);
  if (!params.code) throw fail(E.NO_CODE);
  const found = await providerById(ctx, options, providerId);
  if (!found) throw fail("invalid_provider", "provider_not_found");
  const reference = referenceOf(state);
  if (!reference) throw fail("invalid_state", "missing_sso_provider_reference");
  if (!(await isCurrentReference(found, reference))) throw fail("invalid_state", "SSO_PROVIDER_CHANGED");
  assertDomainVerified(options, found);
  let current = found;
  try {
    current = await withRuntimeDiscovery(found, ctx.context.trustedOrigins);
    await checkServerFetchedEndpoints(current.config, ctx.context.trustedOrigins);
  } catch (error) {
    const message = error instanceof APIError ? error.body?.message : undefined;
    throw fail("discovery_failed", message ?? "unexpected_discovery_error");
  }
  current = await withPlainClientSecret(ctx, options, current);
  const auth = await tokenEndpointAuth(current, options);
  if (!auth) throw fail("invalid_provider", "no_private_key_available");
  const redirectURI = providerRedirectURI(ctx.context.baseURL, providerId, options.redirectURI);
  const observer: RequestObserver = { redirectRefused: false };
  const { resolveUser } = options;
  // Checked before the code is spent, as the reference does (there: before its transaction).
  if (resolveUser && ctx.context.options.secondaryStorage) {
    const refused = databaseSessionsRequired();
    throw fail(refused.body!.code!, refused.body!.message);
  }
  const provider = ssoOAuthProvider(current, options, redirectURI, auth, observer);
  try {
    return await oauthFlow.completeCallback(ctx, provider, {
      state,
      code: params.code,
      iss: params.iss,
      redirectURI,
      fail,
      // A verified domain covering the email vouches for it: implicit linking as for a trusted provider.
      isTrustedProvider: ({ user }) =>
        found.domainVerified === true && emailInDomains(String(user.email ?? ""), found.domain),
      afterSignIn: (signedIn, identified) => afterSSOSignIn(ctx, options, found, signedIn, identified),
      // `resolveUser`: the resolver, the user, account and session writes in one transaction.
      selectUserInTransaction: resolveUser
        ? (identified, database) =>
            resolveInTransaction(
              ctx,
              resolveUser,
              found,
              reference,
              observer.claims ?? { verifiedIdToken: null, userInfo: null },
              identified,
              database,
            )
        : undefined,
    });
  } catch (error) {
    // The token or UserInfo endpoint answered with a redirect, which is never followed.
    if (observer.redirectRefused) throw fail("oidc_endpoint_redirect");
    throw error;
  }
}

/** `GET /sso/callback/:providerId`: the IdP's authorization response for one provider. */
export const ssoCallback = (options: ResolvedSSOOptions) =>
  endpoint("/sso/callback/:providerId", { method: "GET" }, async (ctx) => {
    // An IdP-initiated login (a code, no state) restarts as a normal flow where the provider allows it.
    const early = v.safeParse(query, ctx.query);
    if (early.success && early.output.state === undefined && early.output.code)
      await restartIdpInitiated(ctx, options, ctx.params.providerId ?? "");
    const { params, state } = await openFlow(ctx);
    return finishSSOCallback(ctx, options, ctx.params.providerId ?? "", params, state);
  });

/**
 * `GET /sso/callback`: the shared callback every provider returns to when the `redirectURI`
 * option is set; the provider is the one the sign-in's state names.
 */
export const ssoSharedCallback = (options: ResolvedSSOOptions) =>
  endpoint("/sso/callback", { method: "GET" }, async (ctx) => {
    const { params, state } = await openFlow(ctx);
    const reference = referenceOf(state);
    if (!reference)
      throw callbackErrorRedirect(
        ctx,
        state.errorURL ?? state.callbackURL ?? defaultErrorURL(ctx),
        "invalid_state",
        "missing_sso_provider_reference",
      );
    return finishSSOCallback(ctx, options, reference.providerId, params, state);
  });
