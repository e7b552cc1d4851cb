import { noStoreError } from "./oauth-error.js";

/** RFC 7591 §2 client metadata the provider accepts; unknown top-level members are dropped (spec rule 8). */
export interface ClientMetadata {
  redirect_uris?: string[];
  scope?: string;
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  contacts?: string[];
  tos_uri?: string;
  policy_uri?: string;
  software_id?: string;
  software_version?: string;
  software_statement?: string;
  post_logout_redirect_uris?: string[];
  backchannel_logout_uri?: string;
  backchannel_logout_session_required?: boolean;
  token_endpoint_auth_method?: string;
  jwks?: { keys: Record<string, unknown>[] };
  jwks_uri?: string;
  grant_types?: string[];
  response_types?: string[];
  application_type?: string;
  subject_type?: string;
  dpop_bound_access_tokens?: boolean;
  resources?: string[];
}

const STRINGS = [
  "scope", "client_name", "client_uri", "logo_uri", "tos_uri", "policy_uri", "software_id", "software_version",
  "software_statement", "backchannel_logout_uri", "token_endpoint_auth_method", "jwks_uri", "application_type", "subject_type",
] as const;
const LISTS = ["redirect_uris", "contacts", "post_logout_redirect_uris", "grant_types", "response_types", "resources"] as const;
const BOOLEANS = ["backchannel_logout_session_required", "dpop_bound_access_tokens"] as const;
const URI_LISTS = new Set(["redirect_uris", "post_logout_redirect_uris"]);

/** RFC 7591 §3.2.2 error for one member; redirect URIs have their own code. */
const problem = (member: string, description: string) =>
  noStoreError("BAD_REQUEST", URI_LISTS.has(member) ? "invalid_redirect_uri" : member === "resources" ? "invalid_target" : "invalid_client_metadata", description);

/** Checks the member types of a registration body and keeps the known members. Throws with `no-store` (spec rule 9). */
export function readClientMetadata(raw: unknown, { allowSkipConsent = false } = {}): ClientMetadata {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw noStoreError("BAD_REQUEST", "invalid_client_metadata", "Invalid input: expected object");
  const body = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const name of STRINGS) {
    const value = body[name];
    if (value === undefined) continue;
    if (typeof value !== "string") throw problem(name, `${name} must be a string`);
    out[name] = value;
  }
  if (typeof out.client_name === "string" && !out.client_name.trim()) throw problem("client_name", "client_name: client_name cannot be empty");
  if (typeof out.token_endpoint_auth_method === "string") out.token_endpoint_auth_method = out.token_endpoint_auth_method.trim();
  for (const name of LISTS) {
    const value = body[name];
    if (value === undefined) continue;
    if (!Array.isArray(value) || value.some((item) => typeof item !== "string" || !item.trim())) throw problem(name, `${name} must be a array`);
    if (!value.length && name !== "response_types" && name !== "resources") throw problem(name, `${name}: Too small: expected array to have >=1 items`);
    out[name] = value;
  }
  for (const name of BOOLEANS) {
    const value = body[name];
    if (value === undefined) continue;
    if (typeof value !== "boolean") throw problem(name, `${name} must be a boolean`);
    out[name] = value;
  }
  if (body.jwks !== undefined) {
    const jwks = body.jwks as { keys?: unknown } | null;
    if (!jwks || typeof jwks !== "object" || !Array.isArray(jwks.keys) || !jwks.keys.length) throw problem("jwks", "jwks must be a object");
    out.jwks = jwks;
  }
  if (body.skip_consent !== undefined && !allowSkipConsent) {
    throw problem("skip_consent", "skip_consent: skip_consent cannot be set during dynamic client registration");
  }
  return out as ClientMetadata;
}
