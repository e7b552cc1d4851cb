import { getService, type AuthContext } from "@latchkey/core";
import { JWT_SIGNER } from "@latchkey/jwt";
import type { OAuthMetadataExtensionInput } from "./extension-types.js";
import { clientDiscoveries, extensionAuthMethods, extensionContext, extensionsOf } from "./extensions.js";
import { grantExtensions } from "./grant-extensions.js";
import { issuerOf, jwtDisabled, jwtOptions } from "./issuer.js";
import type { ResolvedOAuthOptions } from "./options.js";

/** RFC 7523 algorithms a client assertion may use (advertised as the reference does). */
const ASSERTION_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];
/** RFC 9449 §5.1 algorithms a DPoP proof may use (advertised as the reference does). */
const DPOP_ALGORITHMS = ["EdDSA", "ES256", "ES512", "PS256", "RS256"];
const CONFIDENTIAL_METHODS = ["client_secret_basic", "client_secret_post", "private_key_jwt"];

/** RFC 8414 §2 authorization-server metadata, member for member the reference's document. */
function providerMetadata(ctx: AuthContext, options: ResolvedOAuthOptions): Record<string, unknown> {
  const base = ctx.baseURL;
  // Without the jwt plugin there are no keys to publish and no logout tokens to sign.
  const withJwt = !jwtDisabled(ctx);
  const extensions = grantExtensions(ctx);
  // Methods of extension strategies are served at the token, introspection and revocation endpoints.
  const confidential = [...CONFIDENTIAL_METHODS, ...extensionAuthMethods(ctx)];
  return {
    scopes_supported: options.advertisedMetadata?.scopes_supported ?? options.scopes,
    issuer: issuerOf(ctx),
    authorization_endpoint: `${base}/oauth2/authorize`,
    token_endpoint: `${base}/oauth2/token`,
    // The jwt plugin's own answer: its `jwks.remoteUrl` when keys are published elsewhere.
    jwks_uri: withJwt ? getService(ctx, JWT_SIGNER).jwksUri() : undefined,
    registration_endpoint: options.allowDynamicClientRegistration ? `${base}/oauth2/register` : undefined,
    introspection_endpoint: `${base}/oauth2/introspect`,
    revocation_endpoint: `${base}/oauth2/revoke`,
    response_types_supported: options.grantTypes.includes("authorization_code") ? ["code"] : [],
    response_modes_supported: ["query"],
    grant_types_supported: [...options.grantTypes, ...extensions.map((extension) => extension.grantType)],
    token_endpoint_auth_methods_supported: [
      ...(options.allowUnauthenticatedClientRegistration ? ["none"] : []),
      ...confidential,
    ],
    token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    introspection_endpoint_auth_methods_supported: confidential,
    introspection_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    revocation_endpoint_auth_methods_supported: confidential,
    revocation_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
    dpop_signing_alg_values_supported: options.dpop?.signingAlgorithms ?? DPOP_ALGORITHMS,
    backchannel_logout_supported: withJwt,
    backchannel_logout_session_supported: withJwt,
    ...Object.assign({}, ...extensions.map((extension) => extension.metadata?.(ctx) ?? {})),
  };
}

/**
 * The document with what extensions add (the reference's rule): client discovery sources'
 * `discoveryMetadata`, then each `metadata()` contribution, computed from the provider's own
 * document, adding only keys nobody set before (first registered wins).
 */
function withExtensions(ctx: AuthContext, options: ResolvedOAuthOptions, type: OAuthMetadataExtensionInput["type"], document: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...document };
  const add = (members: Record<string, unknown> | undefined) => {
    for (const [name, value] of Object.entries(members ?? {})) if (!(name in merged) || merged[name] === undefined) merged[name] = value;
  };
  for (const discovery of clientDiscoveries(ctx)) add(discovery.discoveryMetadata);
  const base = { ...merged };
  for (const extension of extensionsOf(ctx)) add(extension.metadata?.({ ctx: extensionContext(ctx), opts: options, type, document: base }));
  return merged;
}

/** RFC 8414 §2 authorization-server metadata (the reference's members) with the extensions' members. */
export const authorizationServerMetadata = (ctx: AuthContext, options: ResolvedOAuthOptions): Record<string, unknown> =>
  withExtensions(ctx, options, "oauth-authorization-server", providerMetadata(ctx, options));

/** OpenID Connect Discovery 1.0 §3 configuration with the extensions' members. */
export const openIdConfiguration = (ctx: AuthContext, options: ResolvedOAuthOptions): Record<string, unknown> =>
  withExtensions(ctx, options, "openid-configuration", providerOpenIdMetadata(ctx, options));

/** OpenID Connect Discovery 1.0 §3: the AS metadata plus the OpenID members. */
function providerOpenIdMetadata(ctx: AuthContext, options: ResolvedOAuthOptions): Record<string, unknown> {
  return {
    ...providerMetadata(ctx, options),
    claims_supported: options.advertisedMetadata?.claims_supported ?? options.claims,
    claims_parameter_supported: true,
    userinfo_endpoint: `${ctx.baseURL}/oauth2/userinfo`,
    subject_types_supported: options.pairwiseSecret ? ["public", "pairwise"] : ["public"],
    acr_values_supported: ["0"],
    id_token_signing_alg_values_supported: jwtDisabled(ctx) ? ["HS256"] : [jwtOptions(ctx)?.keyPairConfig.alg ?? "EdDSA"],
    end_session_endpoint: `${ctx.baseURL}/oauth2/end-session`,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    prompt_values_supported: ["login", "consent", "create", "select_account", "none"],
  };
}

/** The document a well-known request gets: the OpenID one whenever `openid` is a scope. */
export const discoveryDocument = (ctx: AuthContext, options: ResolvedOAuthOptions): Record<string, unknown> =>
  options.scopes.includes("openid") ? openIdConfiguration(ctx, options) : authorizationServerMetadata(ctx, options);
