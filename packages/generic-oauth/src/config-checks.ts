import type { TokenEndpointAuth } from "@latchkey/core";
import type { GenericOAuthConfig } from "./options.js";

const absoluteURL = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
};

/**
 * Refuses a config that can never work, when `genericOAuth()` is called (misconfiguration is
 * a `TypeError` at start-up, not a request's failure). The client-authentication rules are
 * the reference's init checks; the endpoint rules are ours.
 */
export function checkConfig(c: GenericOAuthConfig): void {
  const where = `genericOAuth provider "${String(c.providerId)}"`;
  if (typeof c.providerId !== "string" || c.providerId === "" || /[/?#\s]/.test(c.providerId))
    throw new TypeError(`${where}: providerId must be a non-empty string usable in a URL path.`);
  if (!c.clientId) throw new TypeError(`${where}: clientId is required.`);
  for (const key of ["discoveryUrl", "authorizationUrl", "tokenUrl", "userInfoUrl"] as const) {
    const value = c[key];
    if (value !== undefined && !absoluteURL(value))
      throw new TypeError(`${where}: ${key} must be an absolute http(s) URL.`);
  }
  if (!c.discoveryUrl) {
    if (!c.authorizationUrl) throw new TypeError(`${where}: needs authorizationUrl or discoveryUrl.`);
    if (!c.tokenUrl && !c.getToken)
      throw new TypeError(`${where}: needs tokenUrl, getToken or discoveryUrl.`);
    // Verification keys only come from discovery.
    if (c.requireIdTokenVerification)
      throw new TypeError(
        `${where}: requireIdTokenVerification needs a discoveryUrl with an issuer and jwks_uri.`,
      );
  }
  if (c.requireIssuerValidation && !c.issuer && !c.discoveryUrl)
    throw new TypeError(`${where}: requireIssuerValidation needs issuer or discoveryUrl.`);
  checkClientAuth(where, c.clientSecret, c.tokenEndpointAuth, c.authentication);
}

function checkClientAuth(
  where: string,
  secret: string | undefined,
  auth: TokenEndpointAuth | undefined,
  authentication: GenericOAuthConfig["authentication"],
): void {
  const method = auth?.method;
  if (secret && (method === "private_key_jwt" || method === "none"))
    throw new TypeError(
      `${where}: tokenEndpointAuth.method "${method}" cannot be combined with clientSecret.`,
    );
  if (!secret && (method === "client_secret_basic" || method === "client_secret_post"))
    throw new TypeError(`${where}: tokenEndpointAuth.method "${method}" requires clientSecret.`);
  if (!secret && !auth && authentication === "basic")
    throw new TypeError(`${where}: authentication "basic" requires clientSecret.`);
}

/** The token-endpoint authentication a config asks for: `tokenEndpointAuth`, else `authentication`. */
export function clientAuthOf(c: GenericOAuthConfig): TokenEndpointAuth {
  if (c.tokenEndpointAuth) return c.tokenEndpointAuth;
  if (!c.clientSecret) return { method: "none" };
  // Reference default: the secret in the form body (RFC 6749 §2.3.1 allows both).
  return c.authentication === "basic" ? { method: "client_secret_basic" } : { method: "client_secret_post" };
}
