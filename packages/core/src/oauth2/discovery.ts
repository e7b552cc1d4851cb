import { BetterAuthError } from "../errors/api-error.js";
import { boundedFetch, type BoundedFetchOptions } from "../net/bounded-fetch.js";

/** The provider metadata fields the OIDC client uses (OIDC Discovery §3, RFC 8414 §2). */
export interface OIDCDiscoveryDocument {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string | undefined;
  end_session_endpoint?: string | undefined;
  id_token_signing_alg_values_supported?: string[] | undefined;
  token_endpoint_auth_methods_supported?: string[] | undefined;
  code_challenge_methods_supported?: string[] | undefined;
  /** RFC 9207 §3. */
  authorization_response_iss_parameter_supported?: boolean | undefined;
  [key: string]: unknown;
}

/** `<issuer>/.well-known/openid-configuration` (OIDC Discovery §4: appended to the issuer path). */
export function discoveryURL(issuer: string): string {
  return `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
}

function absoluteURL(value: unknown, field: string, allowHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new BetterAuthError(`Discovery document: ${field} is not a URL`);
  }
  // OIDC Discovery §3: endpoints are https URLs; plain http only where explicitly allowed
  // (local development and tests against a loopback IdP).
  if (url.protocol !== "https:" && !(allowHttp && url.protocol === "http:")) {
    throw new BetterAuthError(`Discovery document: ${field} must use https`);
  }
  return url.href;
}

/**
 * Fetches and checks an issuer's discovery document. OIDC Discovery §4.3: the `issuer` it
 * states must be identical to the one it was fetched for, or an attacker controlling one
 * issuer's document could impersonate another. Endpoints must be absolute URLs.
 */
export async function fetchDiscovery(
  issuer: string,
  options: {
    headers?: Record<string, string> | undefined;
    allowHttp?: boolean | undefined;
    fetchOptions?: BoundedFetchOptions | undefined;
  } = {},
): Promise<OIDCDiscoveryDocument> {
  const response = await boundedFetch(
    discoveryURL(issuer),
    { method: "GET", headers: { accept: "application/json", ...options.headers } },
    options.fetchOptions,
  );
  if (!response.ok) throw new BetterAuthError(`Discovery for ${issuer} answered ${response.status}`);
  const data: unknown = await response.json().catch(() => null);
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new BetterAuthError(`Discovery for ${issuer} is not a JSON object`);
  }
  const doc = data as Record<string, unknown>;
  if (doc.issuer !== issuer) throw new BetterAuthError(`Discovery for ${issuer} names another issuer`);
  const allowHttp = options.allowHttp ?? false;
  const algs = doc.id_token_signing_alg_values_supported;
  const methods = doc.token_endpoint_auth_methods_supported;
  return {
    ...doc,
    issuer,
    authorization_endpoint: absoluteURL(doc.authorization_endpoint, "authorization_endpoint", allowHttp),
    token_endpoint: absoluteURL(doc.token_endpoint, "token_endpoint", allowHttp),
    jwks_uri: absoluteURL(doc.jwks_uri, "jwks_uri", allowHttp),
    userinfo_endpoint: doc.userinfo_endpoint
      ? absoluteURL(doc.userinfo_endpoint, "userinfo_endpoint", allowHttp)
      : undefined,
    end_session_endpoint: doc.end_session_endpoint
      ? absoluteURL(doc.end_session_endpoint, "end_session_endpoint", allowHttp)
      : undefined,
    id_token_signing_alg_values_supported: Array.isArray(algs)
      ? algs.filter((a): a is string => typeof a === "string")
      : undefined,
    token_endpoint_auth_methods_supported: Array.isArray(methods)
      ? methods.filter((m): m is string => typeof m === "string")
      : undefined,
    authorization_response_iss_parameter_supported:
      doc.authorization_response_iss_parameter_supported === true,
  };
}

/**
 * A memoised discovery fetch: one request shared by concurrent callers, kept once it
 * succeeded; a failure is not kept, so the next sign-in retries (an IdP outage at start-up
 * must not disable the provider for the life of the process).
 */
export function lazyDiscovery(
  load: () => Promise<OIDCDiscoveryDocument>,
): () => Promise<OIDCDiscoveryDocument> {
  let pending: Promise<OIDCDiscoveryDocument> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
