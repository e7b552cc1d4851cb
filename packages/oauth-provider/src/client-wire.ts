import { clientMetadata } from "./clients.js";
import type { OAuthClientRow } from "./schema.js";

/** Wire names the provider owns; a `metadata` key never replaces them. */
export const RESERVED = new Set([
  "client_id", "client_secret", "client_secret_expires_at", "scope", "user_id", "client_id_issued_at",
  "client_name", "client_uri", "logo_uri", "contacts", "tos_uri", "policy_uri", "jwks", "jwks_uri",
  "software_id", "software_version", "software_statement", "redirect_uris", "post_logout_redirect_uris",
  "backchannel_logout_uri", "backchannel_logout_session_required", "token_endpoint_auth_method",
  "grant_types", "response_types", "application_type", "disabled", "skip_consent", "enable_end_session",
  "require_pkce", "dpop_bound_access_tokens", "subject_type", "reference_id", "client_credentials_scopes",
  "resources",
]);

const seconds = (date: Date | null | undefined): number | undefined =>
  date ? Math.round(new Date(date).getTime() / 1000) : undefined;

/** Drops `undefined` members, as JSON serialisation would; keeps the member order. */
function defined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined && value !== null));
}

/**
 * A client row as RFC 7591 §3.2.1 client information, in the reference's member order:
 * extra `metadata` keys first, then the registered metadata. `secret` is the one-time plain
 * secret (with its prefix) of a registration or rotation answer, never the stored hash.
 */
export function clientToWire(client: OAuthClientRow, secret?: string): Record<string, unknown> {
  const extra = Object.fromEntries(Object.entries(clientMetadata(client) ?? {}).filter(([key]) => !RESERVED.has(key)));
  let jwks: unknown;
  try {
    jwks = client.jwks ? JSON.parse(client.jwks) : undefined;
  } catch {
    jwks = undefined;
  }
  return defined({
    ...extra,
    client_id: client.clientId,
    client_secret: secret,
    // RFC 7591 §3.2.1: 0 means the secret does not expire.
    client_secret_expires_at: secret || client.clientSecret ? 0 : undefined,
    scope: client.scopes?.join(" "),
    user_id: client.userId,
    client_id_issued_at: seconds(client.createdAt),
    client_name: client.name,
    client_uri: client.uri,
    logo_uri: client.icon,
    contacts: client.contacts,
    tos_uri: client.tos,
    policy_uri: client.policy,
    jwks,
    jwks_uri: client.jwksUri,
    software_id: client.softwareId,
    software_version: client.softwareVersion,
    software_statement: client.softwareStatement,
    redirect_uris: client.redirectUris ?? [],
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    backchannel_logout_uri: client.backchannelLogoutUri,
    backchannel_logout_session_required: client.backchannelLogoutSessionRequired,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    grant_types: client.grantTypes,
    response_types: client.responseTypes,
    application_type: client.applicationType,
    disabled: client.disabled,
    skip_consent: client.skipConsent,
    enable_end_session: client.enableEndSession,
    require_pkce: client.requirePKCE,
    dpop_bound_access_tokens: client.dpopBoundAccessTokens,
    subject_type: client.subjectType,
    reference_id: client.referenceId,
  });
}
