import { isTrustedOrigin } from "@latchkey/core";
import { discoveryError } from "./discovery.js";
import { isDomainName, isPublicRoutableHost } from "./public-host.js";

/** The endpoint fields of an OIDC configuration that a registration or update may set. */
const CONFIGURED_ENDPOINTS = [
  "authorizationEndpoint",
  "tokenEndpoint",
  "userInfoEndpoint",
  "jwksEndpoint",
  "discoveryEndpoint",
] as const;

/** The endpoints this server fetches itself (the authorization endpoint is only a browser redirect). */
const SERVER_FETCHED = ["tokenEndpoint", "userInfoEndpoint", "jwksEndpoint"] as const;

type Endpoints = Partial<Record<(typeof CONFIGURED_ENDPOINTS)[number], string | undefined>>;

function parsed(name: string, url: string): URL {
  let parsedURL: URL;
  try {
    parsedURL = new URL(url);
  } catch {
    throw discoveryError("discovery_invalid_url", `The ${name} URL is not valid`);
  }
  if (parsedURL.protocol !== "http:" && parsedURL.protocol !== "https:")
    throw discoveryError("discovery_invalid_url", `The ${name} URL must use http or https`);
  return parsedURL;
}

/** 400 `discovery_private_host` unless the URL's host is publicly routable or its origin trusted. */
function checkHost(name: string, url: string, trustedOrigins: readonly string[]): URL {
  const parsedURL = parsed(name, url);
  if (isPublicRoutableHost(parsedURL.hostname) || isTrustedOrigin(parsedURL.href, trustedOrigins, false))
    return parsedURL;
  throw discoveryError(
    "discovery_private_host",
    `The ${name} host ${parsedURL.hostname} is not publicly routable; trust its origin (trustedOrigins) to use an internal IdP`,
  );
}

/**
 * The reference's check of endpoints given in a registration or update: each must be an
 * http(s) URL on a publicly routable host, unless its origin is a trusted origin.
 */
export function checkConfiguredEndpoints(config: Endpoints, trustedOrigins: readonly string[]): void {
  for (const name of CONFIGURED_ENDPOINTS) {
    const url = config[name];
    if (url) checkHost(name, url, trustedOrigins);
  }
}

/** The addresses a host name resolves to, or null where DNS cannot be asked (no `node:dns`) or fails. */
async function resolveAll(host: string): Promise<string[] | null> {
  try {
    const dns = await import("node:dns/promises");
    return (await dns.lookup(host, { all: true })).map((entry) => entry.address);
  } catch {
    return null;
  }
}

/**
 * Before a server-side request to the token, UserInfo or JWKS endpoint: the host check above,
 * then, for an untrusted DNS name, every address it resolves to must be publicly routable
 * too, so a public name pointing at 127.0.0.1 or 169.254.169.254 is refused (a best effort:
 * the connection itself resolves again).
 */
export async function checkServerFetchedEndpoints(
  config: Endpoints,
  trustedOrigins: readonly string[],
): Promise<void> {
  for (const name of SERVER_FETCHED) {
    const url = config[name];
    if (!url) continue;
    const parsedURL = checkHost(name, url, trustedOrigins);
    if (isTrustedOrigin(parsedURL.href, trustedOrigins, false) || !isDomainName(parsedURL.hostname)) continue;
    const addresses = (await resolveAll(parsedURL.hostname)) ?? [];
    const internal = addresses.find((address) => !isPublicRoutableHost(address));
    if (internal)
      throw discoveryError(
        "discovery_private_host",
        `The ${name} host ${parsedURL.hostname} resolves to an address that is not publicly routable`,
      );
  }
}
