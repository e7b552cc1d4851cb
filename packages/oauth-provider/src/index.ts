import { provide, type AuthContext, type LatchkeyPlugin, type PluginRateLimitRule } from "@latchkey/core";
import { OAUTH_PROVIDER_API, providerApi } from "./grant-extensions.js";
import { backchannelLogoutHooks } from "./backchannel-logout.js";
import { authorizationServerMetadata, openIdConfiguration } from "./metadata.js";
import { resolveOAuthOptions, type OAuthOptions, type ResolvedOAuthOptions } from "./options.js";
import { adminCreateClientEndpoint } from "./routes/admin-create-client.js";
import { adminUpdateClientEndpoint } from "./routes/admin-update-client.js";
import { adminResourceEndpoints } from "./routes/admin-resources.js";
import { authorizeEndpoint } from "./routes/authorize.js";
import { consentEndpoint } from "./routes/consent.js";
import { continueEndpoint } from "./routes/continue.js";
import { endSessionConfirmEndpoint, endSessionEndpoint } from "./routes/end-session.js";
import { deleteConsentEndpoint, getConsentEndpoint, getConsentsEndpoint, updateConsentEndpoint } from "./routes/consents.js";
import {
  deleteClientEndpoint,
  getClientEndpoint,
  getClientsEndpoint,
  getPublicClientEndpoint,
  getPublicClientPreloginEndpoint,
  rotateSecretEndpoint,
} from "./routes/clients.js";
import { createClientEndpoint } from "./routes/create-client.js";
import { introspectEndpoint } from "./routes/introspect.js";
import { registerEndpoint } from "./routes/register.js";
import { revokeEndpoint } from "./routes/revoke.js";
import { tokenEndpoint } from "./routes/token.js";
import { updateClientEndpoint } from "./routes/update-client.js";
import { userInfoEndpoint } from "./routes/userinfo.js";
import { serverMetadataEndpoints } from "./routes/metadata.js";
import { resumeHooks } from "./resume-hooks.js";
import { oauthProviderSchema } from "./schema.js";
import { wellKnownHandler } from "./well-known.js";

export type { ClientAction, GrantType, OAuthOptions, OAuthRateLimitRule, StoreClientSecretOption, StoreTokensOption, StoredTokenType } from "./options.js";
export type { OAuthAccessTokenRow, OAuthClientRow, OAuthConsentRow, OAuthRefreshTokenRow } from "./schema.js";
export { authorizationServerMetadata, openIdConfiguration };
export { BACKCHANNEL_LOGOUT_EVENT, settleBackchannelLogouts } from "./backchannel-logout.js";
export type { BackchannelLogoutOptions } from "./options.js";
export { OAUTH_PROVIDER_API, oauthGrantExtensionKey } from "./grant-extensions.js";
export type { OAuthGrantExtension, OAuthIssueInput, OAuthProviderService } from "./grant-extensions.js";
export { extendOAuthProvider } from "./extensions.js";
export { consumeClientAssertion, type ClientAssertionClaims } from "./client-assertion.js";
export { getOAuthProviderApi } from "./provider-api.js";
export type {
  ClientDiscovery,
  OAuthAuthenticatedClient,
  OAuthClaimExtensionInput,
  OAuthClientAuthenticationInput,
  OAuthClientAuthenticationRequest,
  OAuthClientAuthenticationResult,
  OAuthClientAuthenticationStrategy,
  OAuthConfirmation,
  OAuthExtensionContext,
  OAuthExtensionGrantHandler,
  OAuthExtensionGrantHandlerInput,
  OAuthMetadataExtensionInput,
  OAuthProviderApi,
  OAuthProviderExtension,
  OAuthTokenIssueParams,
  OAuthTokenResponse,
  OAuthUserInfoExtensionInput,
} from "./extension-types.js";
export type { OAuthResourceInput, ResourceAction, ResourceOptions } from "./resource-options.js";
export type { OAuthResourceRow } from "./resource-store.js";

function endpoints(options: ResolvedOAuthOptions) {
  return {
    oauth2Authorize: authorizeEndpoint(options),
    oauth2Consent: consentEndpoint(options),
    oauth2Continue: continueEndpoint(options),
    oauth2Token: tokenEndpoint(options),
    oauth2Introspect: introspectEndpoint(options),
    oauth2Revoke: revokeEndpoint(options),
    oauth2UserInfo: userInfoEndpoint(options),
    oauth2EndSession: endSessionEndpoint(),
    oauth2EndSessionConfirmation: endSessionConfirmEndpoint(),
    registerOAuthClient: registerEndpoint(options),
    createOAuthClient: createClientEndpoint(options),
    adminCreateOAuthClient: adminCreateClientEndpoint(options),
    adminUpdateOAuthClient: adminUpdateClientEndpoint(options),
    getOAuthClient: getClientEndpoint(options),
    getOAuthClientPublic: getPublicClientEndpoint(),
    getOAuthClientPublicPrelogin: getPublicClientPreloginEndpoint(options),
    getOAuthClients: getClientsEndpoint(options),
    updateOAuthClient: updateClientEndpoint(options),
    rotateClientSecret: rotateSecretEndpoint(options),
    deleteOAuthClient: deleteClientEndpoint(options),
    getOAuthConsent: getConsentEndpoint(),
    getOAuthConsents: getConsentsEndpoint(),
    updateOAuthConsent: updateConsentEndpoint(options),
    deleteOAuthConsent: deleteConsentEndpoint(),
    ...serverMetadataEndpoints(options),
    ...adminResourceEndpoints(options),
  };
}

/** The endpoints `oauthProvider()` adds, by `auth.api` name. */
export type OAuthProviderEndpoints = ReturnType<typeof endpoints>;

/** The plugin object `oauthProvider()` returns. */
export interface OAuthProviderPlugin extends LatchkeyPlugin<"oauth-provider", OAuthProviderEndpoints> {
  id: "oauth-provider";
  options: ResolvedOAuthOptions;
}

const RATE_LIMITS = { token: 20, authorize: 30, introspect: 100, revoke: 30, register: 5, userinfo: 60 } as const;

/** Per-route limits (60 s windows by default), each configurable or off. */
function rateLimits(options: ResolvedOAuthOptions): PluginRateLimitRule[] {
  return Object.entries(RATE_LIMITS).flatMap(([name, max]) => {
    const rule = options.rateLimit?.[name as keyof typeof RATE_LIMITS];
    if (rule === false) return [];
    const path = `/oauth2/${name}`;
    return [{ window: rule?.window ?? 60, max: rule?.max ?? max, pathMatcher: (candidate: string) => candidate === path }];
  });
}

/**
 * An OAuth 2.1 authorization server and OpenID provider: authorization code with PKCE,
 * refresh-token rotation, client credentials, dynamic registration, introspection,
 * revocation, userinfo and discovery, storing clients, tokens and consents as Better Auth's
 * `@better-auth/oauth-provider` does. ID tokens are signed by the `jwt()` plugin.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [jwt(), oauthProvider({ loginPage: "/sign-in", consentPage: "/consent" })] });
 */
export function oauthProvider(options: OAuthOptions): OAuthProviderPlugin {
  const resolved = resolveOAuthOptions(options);
  // Session delete hooks may run outside an endpoint call (core's sign-out passes none): they
  // then use the context the plugin was started with.
  let started: AuthContext | undefined;
  return {
    id: "oauth-provider",
    // `disableJwtPlugin`: HS256 ID tokens under client secrets, so the jwt plugin is not needed.
    requires: resolved.disableJwtPlugin ? [] : ["jwt"],
    schema: oauthProviderSchema,
    endpoints: endpoints(resolved),
    rateLimit: rateLimits(resolved),
    hooks: resumeHooks(resolved),
    databaseHooks: backchannelLogoutHooks(resolved, () => started),
    init: (ctx) => {
      started = ctx;
      // Tokens are bound to session rows (their ids are read back at the token endpoint and by
      // introspection), so sessions must also live in the database, as the reference requires.
      if (ctx.options.secondaryStorage && !ctx.options.session?.storeSessionInDatabase) {
        throw new TypeError("oauthProvider: with secondaryStorage, session.storeSessionInDatabase must be true");
      }
      // Companion plugins (the device grant) authenticate clients and issue tokens through this service.
      return { services: [provide(OAUTH_PROVIDER_API, providerApi(resolved))] };
    },
    onRequest: wellKnownHandler(resolved),
    options: resolved,
  };
}
