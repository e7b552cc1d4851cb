import { APIError, defineErrorCodes } from "@latchkey/core";

/** Error codes of the SSO plugin → messages (the reference's strings where it has them). */
export const SSO_ERROR_CODES = defineErrorCodes({
  PROVIDER_NOT_FOUND: "Provider not found",
  PROVIDER_ACCESS_DENIED: "You don't have access to this provider",
  PROVIDER_EXISTS: "SSO provider with this providerId already exists",
  PROVIDERS_LIMIT_REACHED: "You have reached the maximum number of SSO providers",
  NOT_ORGANIZATION_MEMBER: "You are not a member of the organization",
  ORGANIZATION_ROLE_REQUIRED: "You must be an organization owner or admin to register SSO providers",
  IDENTITY_FIELDS_LOCKED: "Cannot change SSO provider identity fields while linked accounts exist",
  SSO_PROVIDER_CHANGED: "The SSO provider changed between sign-in and callback",
  PROVIDER_NOT_FOUND_FOR_ISSUER: "No provider found for the issuer",
  // Row 120: registration without any `oidcConfig` (the reference stores it and fails later).
  INVALID_OIDC_CONFIG: "Incomplete OIDC configuration",
  // Domain verification (`domainVerification.enabled`).
  DOMAIN_VERIFIED: "Domain has already been verified",
  NO_PENDING_VERIFICATION: "No pending domain verification exists",
  IDENTIFIER_TOO_LONG: "Verification identifier exceeds the DNS label limit of 63 characters",
  INVALID_DOMAIN: "Invalid domain",
  DOMAIN_VERIFICATION_FAILED: "Unable to verify domain ownership",
  SSO_PROVIDER_MUTATION_REJECTED: "SSO provider mutation is not allowed",
  // A database hook refused the row: the reference runs no hooks on this table.
  PROVIDER_NOT_CREATED: "The SSO provider could not be created",
  // Not served (SAML); the reference registers the SAML provider (divergence row 122).
  SAML_NOT_SUPPORTED: "SAML providers are not supported",
  // OIDC discovery (the reference's lower-case codes; the answers carry a specific message).
  discovery_invalid_url: "The discovery URL is not valid",
  discovery_not_found: "The discovery document was not found",
  discovery_untrusted_origin: "The discovery URL is not on a trusted origin",
  oidc_endpoint_redirect: "An OIDC endpoint answered with a redirect",
  discovery_invalid_json: "The discovery document is not JSON",
  discovery_incomplete: "The discovery document is incomplete",
  issuer_mismatch: "The discovery document names another issuer",
  unsupported_token_auth_method: "The IdP does not support the token endpoint authentication method",
  discovery_private_host: "The OIDC endpoint is not publicly routable",
  discovery_timeout: "The discovery endpoint did not answer in time",
  discovery_unexpected_error: "OIDC discovery failed",
});

/** The `oidcConfig` fields a registration must carry, named in the 400 that refuses it. */
export function incompleteOIDCConfig(missing: string[]): APIError {
  return APIError.from(
    "BAD_REQUEST",
    "INVALID_OIDC_CONFIG",
    `Incomplete OIDC configuration: missing ${missing.join(", ")}`,
  );
}

/**
 * The reference's message-only refusals (`{ message }`, no `code`): the SSO plugin of the
 * reference defines no error codes for its OIDC routes, so neither do these answers.
 */
export const REFERENCE_MESSAGES = {
  PROVIDER_ID_RESERVED: "This providerId is reserved and cannot be used for an SSO provider",
  SSO_REGISTRATION_DISABLED: "SSO provider registration is disabled",
  NO_UPDATE_FIELDS: "No fields provided for update",
  CLIENT_SECRET_REQUIRED:
    "clientSecret is required when using client_secret_basic or client_secret_post authentication",
  PRIVATE_KEY_REQUIRED:
    "private_key_jwt authentication requires either a resolvePrivateKey callback or a privateKey in defaultSSO",
  LOOKUP_INPUT_REQUIRED: "email, organizationSlug, domain or providerId is required",
  NO_AUTHORIZATION_ENDPOINT: "Invalid OIDC configuration. Authorization URL not found.",
  DOMAIN_NOT_VERIFIED: "Provider domain has not been verified",
} as const;

/** A `{ message }` refusal as the reference sends it. */
export const referenceError = (
  status: "BAD_REQUEST" | "UNAUTHORIZED" | "FORBIDDEN" | "UNPROCESSABLE_ENTITY",
  key: keyof typeof REFERENCE_MESSAGES,
): APIError => new APIError(status, { message: REFERENCE_MESSAGES[key] });
