import { extensionAuthMethods } from "./extensions.js";
import { grantExtensions } from "./grant-extensions.js";
import { generateRandomString, type AuthContext } from "@latchkey/core";
import { deliverableLogoutURI } from "./backchannel-logout.js";
import { clientToWire } from "./client-wire.js";
import { noStoreError } from "./oauth-error.js";
import type { ResolvedOAuthOptions } from "./options.js";
import { assertRegistrableRedirectUri } from "./redirect-uri.js";
import type { ClientMetadata } from "./registration-body.js";
import type { OAuthClientRow } from "./schema.js";
import { storedClientSecret } from "./token-hash.js";
import { quoted } from "./echo.js";
import { linkNewClient, registrationResources } from "./registration-resources.js";
import { checkClientKeys } from "./registration-keys.js";
import { secretExpiresAt } from "./expirations.js";

/** Where a registration comes from: RFC 7591 dynamic registration, or a signed-in user's `create-client`. */
export type RegistrationSource = "dynamic" | "managed";

const METHODS = new Set(["none", "client_secret_basic", "client_secret_post", "private_key_jwt"]);
const invalid = (description: string) => noStoreError("BAD_REQUEST", "invalid_client_metadata", description);

/** Scopes a dynamically registered client is stored with: the default set plus the allowed extras. */
const registrationScopes = (options: ResolvedOAuthOptions): string[] => [
  ...new Set([...(options.clientRegistrationDefaultScopes ?? options.scopes), ...(options.clientRegistrationAllowedScopes ?? [])]),
];

/** RFC 7591 §2 defaults: `client_secret_basic`, `web`, the `authorization_code` grant with `code`. */
export function withDefaults(metadata: ClientMetadata): ClientMetadata & { grant_types: string[] } {
  const grants = metadata.grant_types ?? ["authorization_code"];
  return {
    ...metadata,
    token_endpoint_auth_method: metadata.token_endpoint_auth_method ?? "client_secret_basic",
    application_type: metadata.application_type ?? "web",
    grant_types: grants,
    response_types: metadata.response_types ?? (grants.includes("authorization_code") ? ["code"] : undefined),
  };
}

/** The reference's metadata checks, in its order (RFC 7591 §2, spec rule 5). */
export function checkMetadata(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  client: ReturnType<typeof withDefaults>,
  source: RegistrationSource,
): void {
  const method = client.token_endpoint_auth_method!;
  // An extension strategy's method may be registered too (the reference's open string).
  if (!METHODS.has(method) && !extensionAuthMethods(ctx).includes(method)) throw invalid(`unsupported token_endpoint_auth_method ${quoted(method)}`);
  const type = client.application_type!;
  if (type !== "web" && type !== "native") throw invalid("application_type must be web or native");
  const grants = client.grant_types;
  if (grants.includes("authorization_code") && !client.redirect_uris?.length) {
    throw noStoreError("BAD_REQUEST", "invalid_redirect_uri", "Redirect URIs are required for authorization_code and implicit grant types");
  }
  try {
    for (const uri of client.redirect_uris ?? []) assertRegistrableRedirectUri(uri, type);
  } catch (error) {
    throw error instanceof Error && "body" in error ? noStoreError("BAD_REQUEST", "invalid_redirect_uri", String((error as { body: { error_description: string } }).body.error_description)) : error;
  }
  const extended = grantExtensions(ctx).map((extension) => extension.grantType);
  for (const grant of grants) if (!options.grantTypes.includes(grant as never) && !extended.includes(grant)) throw invalid(`unsupported grant_type ${quoted(grant)}`);
  const responses = client.response_types ?? [];
  if (responses.some((type) => type !== "code")) throw invalid("response_types must be one of: code");
  if (grants.includes("authorization_code") && !responses.includes("code")) {
    throw invalid("When 'authorization_code' grant type is used, 'code' response type must be included");
  }
  if (!grants.includes("authorization_code") && responses.includes("code")) {
    throw invalid("When 'code' response type is used, 'authorization_code' grant type must be included");
  }
  if (client.subject_type !== undefined) {
    if (client.subject_type !== "public" && client.subject_type !== "pairwise") throw invalid('subject_type must be "public" or "pairwise"');
    if (client.subject_type === "pairwise" && !options.pairwiseSecret) throw invalid("pairwise subject_type requires server pairwiseSecret configuration");
    if (client.subject_type === "pairwise" && new Set((client.redirect_uris ?? []).map((uri) => new URL(uri).host)).size > 1) {
      throw invalid("pairwise clients with redirect_uris on different hosts require a sector_identifier_uri, which is not yet supported. All redirect_uris must share the same host.");
    }
  }
  const allowed = new Set(source === "dynamic" ? registrationScopes(options) : options.scopes);
  for (const scope of (client.scope ?? "").split(" ").filter(Boolean)) {
    if (!allowed.has(scope)) throw noStoreError("BAD_REQUEST", "invalid_scope", `cannot request scope ${quoted(scope)}`);
  }
  checkClientKeys(ctx, options, client);
  if (client.backchannel_logout_uri !== undefined) {
    if (options.disableJwtPlugin) throw invalid("backchannel_logout_uri requires the jwt plugin (disableJwtPlugin must be false)");
    const refused = deliverableLogoutURI(client.backchannel_logout_uri, options.backchannelLogout);
    if (refused) throw invalid(refused);
  }
  // RFC 8707 resources are asked for by dynamic registrations only (registration-resources.ts).
  if (client.resources?.length && source !== "dynamic") {
    throw noStoreError("BAD_REQUEST", "invalid_target", `requested resource ${quoted(client.resources[0]!)} is not allowed for client registration`);
  }
}

/** The columns of the metadata members present (RFC 7591 wire names → the reference's columns). */
export function metadataColumns(metadata: ClientMetadata): Record<string, unknown> {
  const columns: Record<string, unknown> = {
    name: metadata.client_name,
    uri: metadata.client_uri,
    icon: metadata.logo_uri,
    contacts: metadata.contacts,
    tos: metadata.tos_uri,
    policy: metadata.policy_uri,
    softwareId: metadata.software_id,
    softwareVersion: metadata.software_version,
    softwareStatement: metadata.software_statement,
    redirectUris: metadata.redirect_uris,
    postLogoutRedirectUris: metadata.post_logout_redirect_uris,
    backchannelLogoutUri: metadata.backchannel_logout_uri,
    backchannelLogoutSessionRequired: metadata.backchannel_logout_session_required,
    tokenEndpointAuthMethod: metadata.token_endpoint_auth_method,
    grantTypes: metadata.grant_types,
    responseTypes: metadata.response_types,
    jwks: metadata.jwks ? JSON.stringify(metadata.jwks) : undefined,
    jwksUri: metadata.jwks_uri,
    applicationType: metadata.application_type,
    dpopBoundAccessTokens: metadata.dpop_bound_access_tokens,
    subjectType: metadata.subject_type,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

/** Settings only a server-side (admin) registration may choose. */
export interface OperatorSettings {
  clientCredentialsScopes?: string[] | undefined;
  skipConsent?: boolean | undefined;
  requirePKCE?: boolean | undefined;
  enableEndSession?: boolean | undefined;
}

/** Who owns the new client. */
export interface RegistrationOwner {
  userId?: string | undefined;
  /** Owner named by an initial access token (an organisation, a tenant). */
  referenceId?: string | undefined;
}

/**
 * Validates, stores and answers a registration (RFC 7591 §3.2.1): the secret is generated for
 * confidential clients only, stored hashed, and shown once in the answer (with its prefix).
 */
export async function registerClient(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  metadata: ClientMetadata,
  source: RegistrationSource,
  owner: RegistrationOwner,
  operator: OperatorSettings = {},
): Promise<Record<string, unknown>> {
  const scoped = source === "dynamic" && !metadata.scope ? { ...metadata, scope: (options.clientRegistrationDefaultScopes ?? options.scopes).join(" ") } : metadata;
  const client = withDefaults(scoped);
  checkMetadata(ctx, options, client, source);
  const resources = await registrationResources(ctx, options, client.resources ?? []);
  const isPublic = client.token_endpoint_auth_method === "none";
  // A private_key_jwt client proves itself with its keys: it gets no secret (OIDC Core §9).
  // So does a client of an extension method: its strategy proves it.
  const keyed = client.token_endpoint_auth_method === "private_key_jwt" || extensionAuthMethods(ctx).includes(client.token_endpoint_auth_method!);
  const secret = isPublic || keyed ? undefined : options.generateClientSecret?.() || generateRandomString(32, "a-z", "A-Z");
  const requirePKCE = operator.requirePKCE ?? (source === "dynamic" && !isPublic && options.clientRegistrationRequirePKCE === false ? false : undefined);
  const scopes = source === "dynamic" ? registrationScopes(options) : client.scope?.split(" ").filter(Boolean);
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const row = await ctx.internalAdapter.create<OAuthClientRow>("oauthClient", {
    clientId: options.generateClientId?.() ?? generateRandomString(32, "a-z", "A-Z"),
    clientSecret: secret ? await storedClientSecret(options, secret, ctx) : undefined,
    scopes,
    userId: owner.referenceId ? undefined : owner.userId,
    referenceId: owner.referenceId,
    createdAt: now,
    updatedAt: now,
    ...metadataColumns(client),
    redirectUris: client.redirect_uris ?? [],
    requirePKCE,
    clientCredentialsScopes: isPublic ? [] : (operator.clientCredentialsScopes ?? []),
    skipConsent: operator.skipConsent,
    enableEndSession: operator.enableEndSession,
    clientDiscoveryId: null,
  });
  if (!row) throw noStoreError("BAD_REQUEST", "invalid_client_metadata", "client not created");
  await linkNewClient(ctx, row.clientId, resources);
  const answer = clientToWire(row, secret ? (options.prefix?.clientSecret ?? "") + secret : undefined);
  if (secret && source === "dynamic") answer.client_secret_expires_at = secretExpiresAt(options, Math.floor(now.getTime() / 1000));
  return resources.length ? { ...answer, resources } : answer;
}
