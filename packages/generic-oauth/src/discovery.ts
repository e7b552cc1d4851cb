import { boundedFetch } from "@latchkey/core";

/** What a provider's discovery document contributes (OIDC Discovery §3, RFC 8414 §2). */
export interface DiscoveredMetadata {
  issuer?: string | undefined;
  authorizationUrl?: string | undefined;
  tokenUrl?: string | undefined;
  userInfoUrl?: string | undefined;
  endSessionEndpoint?: string | undefined;
  /** Resolved against the discovery URL, as the reference does. */
  jwksUrl?: string | undefined;
  /** `id_token_signing_alg_values_supported`; non-empty marks an OpenID provider. */
  signingAlgorithms: string[];
  /** RFC 9207 §3: the provider always sends `iss` in authorization responses. */
  issParameterSupported: boolean;
}

/** An absolute http(s) URL, or undefined for anything else. */
function urlField(value: unknown, base?: string): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  try {
    const url = new URL(value, base);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a configured discovery URL. Unlike core's issuer-based `fetchDiscovery`, the URL is
 * given as is (a Generic OAuth config may point anywhere, e.g. Entra's tenant path), so the
 * issuer cannot be compared with it; as in the reference, it must only be a URL. Endpoints
 * that are not absolute URLs are dropped, leaving the config's own values or none. Throws
 * on a failed fetch or a body that is no JSON object; the caller logs and retries later.
 */
export async function discoverMetadata(
  discoveryUrl: string,
  headers: Record<string, string> | undefined,
): Promise<DiscoveredMetadata> {
  const response = await boundedFetch(discoveryUrl, {
    method: "GET",
    headers: { accept: "application/json", ...headers },
  });
  if (!response.ok) throw new Error(`discovery answered ${response.status}`);
  const data: unknown = await response.json().catch(() => null);
  if (typeof data !== "object" || data === null || Array.isArray(data))
    throw new Error("discovery document is not a JSON object");
  const doc = data as Record<string, unknown>;
  const issuer = doc.issuer === undefined ? undefined : urlField(doc.issuer);
  if (doc.issuer !== undefined && !issuer) throw new Error("discovery document names an invalid issuer");
  const algs = doc.id_token_signing_alg_values_supported;
  return {
    // The issuer is kept verbatim: RFC 9207 and ID-token `iss` checks compare exact strings.
    issuer: issuer ? String(doc.issuer) : undefined,
    authorizationUrl: urlField(doc.authorization_endpoint),
    tokenUrl: urlField(doc.token_endpoint),
    userInfoUrl: urlField(doc.userinfo_endpoint),
    endSessionEndpoint: urlField(doc.end_session_endpoint),
    jwksUrl: urlField(doc.jwks_uri, discoveryUrl),
    signingAlgorithms: Array.isArray(algs) ? algs.filter((a): a is string => typeof a === "string") : [],
    issParameterSupported: doc.authorization_response_iss_parameter_supported === true,
  };
}
