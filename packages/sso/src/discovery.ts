import { APIError, boundedFetch, discoveryURL, isTrustedOrigin, OutboundFetchError } from "@latchkey/core";
import type { TokenEndpointAuthentication } from "./schema.js";

/** The reference's discovery failure codes; the last two are answered 502, the rest 400. */
export type DiscoveryErrorCode =
  | "discovery_invalid_url"
  | "discovery_not_found"
  | "discovery_untrusted_origin"
  | "discovery_private_host"
  | "oidc_endpoint_redirect"
  | "discovery_invalid_json"
  | "discovery_incomplete"
  | "issuer_mismatch"
  | "unsupported_token_auth_method"
  | "discovery_timeout"
  | "discovery_unexpected_error";

/** A discovery failure as the routes answer it: `{ code, message }`. */
export function discoveryError(code: DiscoveryErrorCode, message: string): APIError {
  const status = code === "discovery_timeout" || code === "discovery_unexpected_error" ? 502 : "BAD_REQUEST";
  return APIError.from(status, code, message);
}

/** What a configuration brings to discovery; its own endpoints win over discovered ones. */
export interface DiscoveryInput {
  issuer: string;
  discoveryEndpoint?: string | undefined;
  authorizationEndpoint?: string | undefined;
  tokenEndpoint?: string | undefined;
  userInfoEndpoint?: string | undefined;
  jwksEndpoint?: string | undefined;
  tokenEndpointAuthentication?: TokenEndpointAuthentication | undefined;
}

/** The endpoints a provider is stored with after discovery. */
export interface DiscoveredEndpoints {
  discoveryEndpoint: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksEndpoint: string;
  userInfoEndpoint?: string | undefined;
  tokenEndpointAuthentication: TokenEndpointAuthentication;
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, "");

/** A document field resolved against the issuer, or undefined when it is not an http(s) URL. */
function endpointField(value: unknown, issuer: string): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  try {
    const url = new URL(value, `${withoutTrailingSlash(issuer)}/`);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The method to authenticate with: the configured one when the IdP supports it (or lists
 * none), else the first the IdP offers of basic, post, private_key_jwt. At runtime (a stored
 * provider missing endpoints) the stored method is kept whatever the document lists, and a
 * document offering none of the three means basic, as the reference hydrates stored providers.
 */
function pickAuthMethod(
  configured: TokenEndpointAuthentication | undefined,
  supported: unknown,
  atRuntime: boolean,
): TokenEndpointAuthentication {
  if (atRuntime && configured) return configured;
  const list = Array.isArray(supported) ? supported.filter((m): m is string => typeof m === "string") : [];
  if (configured) {
    if (list.length && !list.includes(configured))
      throw discoveryError(
        "unsupported_token_auth_method",
        `The IdP does not support ${configured} at its token endpoint`,
      );
    return configured;
  }
  if (!list.length || list.includes("client_secret_basic")) return "client_secret_basic";
  if (list.includes("client_secret_post")) return "client_secret_post";
  if (list.includes("private_key_jwt")) return "private_key_jwt";
  if (atRuntime) return "client_secret_basic";
  throw discoveryError(
    "unsupported_token_auth_method",
    "The IdP supports none of the token endpoint authentication methods",
  );
}

async function fetchDocument(url: string): Promise<unknown> {
  let response: Response;
  try {
    response = await boundedFetch(url, { method: "GET", headers: { accept: "application/json" } });
  } catch (error) {
    if (error instanceof OutboundFetchError) {
      if (error.code === "REDIRECT_REFUSED")
        throw discoveryError("oidc_endpoint_redirect", "The discovery endpoint answered with a redirect");
      if (error.code === "TIMEOUT")
        throw discoveryError("discovery_timeout", "The discovery endpoint did not answer in time");
      if (error.code === "INVALID_URL")
        throw discoveryError("discovery_invalid_url", "The discovery URL is not valid");
    }
    throw discoveryError("discovery_unexpected_error", "The discovery document could not be fetched");
  }
  if (!response.ok)
    throw discoveryError("discovery_not_found", `The discovery endpoint answered ${response.status}`);
  return response.json().catch(() => {
    throw discoveryError("discovery_invalid_json", "The discovery document is not JSON");
  });
}

/**
 * OIDC discovery for a provider being registered: fetches `discoveryEndpoint` (or the
 * issuer's `/.well-known/openid-configuration`) without following redirects, requires the
 * document's `issuer` to equal the configured one (OIDC Discovery §4.3; a trailing slash
 * aside) and `authorization_endpoint`, `token_endpoint`, `jwks_uri`, and every URL used to
 * lie on a trusted origin. Throws the reference's `{ code, message }` errors. `atRuntime`: for a
 * stored provider at sign-in, whose token endpoint method is kept (see `pickAuthMethod`).
 */
export async function discover(
  input: DiscoveryInput,
  trustedOrigins: readonly string[],
  { atRuntime = false }: { atRuntime?: boolean } = {},
): Promise<DiscoveredEndpoints> {
  let url: string;
  try {
    url = new URL(input.discoveryEndpoint ?? discoveryURL(input.issuer)).href;
  } catch {
    throw discoveryError("discovery_invalid_url", "The discovery URL is not valid");
  }
  if (!/^https?:$/.test(new URL(url).protocol))
    throw discoveryError("discovery_invalid_url", "The discovery URL is not valid");
  if (!isTrustedOrigin(url, trustedOrigins, false))
    throw discoveryError("discovery_untrusted_origin", "The discovery URL is not on a trusted origin");
  const data = await fetchDocument(url);
  if (typeof data !== "object" || data === null || Array.isArray(data))
    throw discoveryError("discovery_invalid_json", "The discovery document is not a JSON object");
  const doc = data as Record<string, unknown>;
  const missing = ["issuer", "authorization_endpoint", "token_endpoint", "jwks_uri"].filter(
    (key) => typeof doc[key] !== "string" || doc[key] === "",
  );
  if (missing.length)
    throw discoveryError("discovery_incomplete", `The discovery document lacks ${missing.join(", ")}`);
  if (withoutTrailingSlash(String(doc.issuer)) !== withoutTrailingSlash(input.issuer))
    throw discoveryError("issuer_mismatch", "The discovery document names another issuer");
  const found = {
    authorizationEndpoint:
      input.authorizationEndpoint ?? endpointField(doc.authorization_endpoint, input.issuer),
    tokenEndpoint: input.tokenEndpoint ?? endpointField(doc.token_endpoint, input.issuer),
    jwksEndpoint: input.jwksEndpoint ?? endpointField(doc.jwks_uri, input.issuer),
    userInfoEndpoint: input.userInfoEndpoint ?? endpointField(doc.userinfo_endpoint, input.issuer),
  };
  const { authorizationEndpoint, tokenEndpoint, jwksEndpoint } = found;
  if (!authorizationEndpoint || !tokenEndpoint || !jwksEndpoint)
    throw discoveryError(
      "discovery_incomplete",
      "The discovery document names an endpoint that is not a URL",
    );
  for (const endpoint of Object.values(found))
    if (endpoint && !isTrustedOrigin(endpoint, trustedOrigins, false))
      throw discoveryError("discovery_untrusted_origin", "A discovered endpoint is not on a trusted origin");
  return {
    discoveryEndpoint: url,
    authorizationEndpoint,
    tokenEndpoint,
    jwksEndpoint,
    userInfoEndpoint: found.userInfoEndpoint,
    tokenEndpointAuthentication: pickAuthMethod(
      input.tokenEndpointAuthentication,
      doc.token_endpoint_auth_methods_supported,
      atRuntime,
    ),
  };
}
