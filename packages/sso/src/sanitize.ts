import { returnedAdditional, type SSOProviderAdditionalFields } from "./additional-fields.js";
import { parseOIDCConfig, type SSOProviderRow } from "./schema.js";

/** A provider as the routes answer it: no client secret, the client id shortened to its last four characters. */
export interface SanitizedProvider {
  providerId: string;
  type: "oidc" | "saml";
  issuer: string;
  domain: string;
  organizationId: string | null;
  domainVerified: boolean;
  oidcConfig?: {
    discoveryEndpoint?: string | undefined;
    clientIdLastFour: string;
    pkce?: boolean | undefined;
    authorizationEndpoint?: string | undefined;
    tokenEndpoint?: string | undefined;
    userInfoEndpoint?: string | undefined;
    jwksEndpoint?: string | undefined;
    scopes?: string[] | undefined;
    tokenEndpointAuthentication?: string | undefined;
  };
  spMetadataUrl: string;
  /** The additional fields (`returned` not false). */
  [field: string]: unknown;
}

/** `****` and the last four characters of a client id, as the reference shows it. */
export const lastFour = (clientId: string): string => `****${clientId.slice(-4)}`;

/**
 * The answer for one stored provider (the reference's `sanitizeProvider`, SAML details left
 * out), led by its returned additional fields as the reference's is.
 */
export function sanitizeProvider(
  row: SSOProviderRow,
  baseURL: string,
  additionalFields: SSOProviderAdditionalFields = {},
): SanitizedProvider {
  const oidc = parseOIDCConfig(row);
  return {
    ...returnedAdditional(row, additionalFields),
    providerId: row.providerId,
    type: row.samlConfig ? "saml" : "oidc",
    issuer: row.issuer,
    domain: row.domain,
    organizationId: row.organizationId ?? null,
    domainVerified: row.domainVerified ?? false,
    ...(oidc
      ? {
          oidcConfig: {
            discoveryEndpoint: oidc.discoveryEndpoint,
            clientIdLastFour: lastFour(String(oidc.clientId ?? "")),
            pkce: oidc.pkce,
            authorizationEndpoint: oidc.authorizationEndpoint,
            tokenEndpoint: oidc.tokenEndpoint,
            userInfoEndpoint: oidc.userInfoEndpoint,
            jwksEndpoint: oidc.jwksEndpoint,
            scopes: oidc.scopes,
            tokenEndpointAuthentication: oidc.tokenEndpointAuthentication,
          },
        }
      : {}),
    spMetadataUrl: `${baseURL}/sso/saml2/sp/metadata?providerId=${encodeURIComponent(row.providerId)}`,
  };
}
