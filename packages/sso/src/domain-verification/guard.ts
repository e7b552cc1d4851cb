import { SSO_ERROR_CODES } from "../error-codes.js";
import type { FoundProvider } from "../oidc-provider.js";
import type { ResolvedSSOOptions } from "../options.js";

/** With verification on, nobody signs in through a provider whose domain is unproven: 401 `DOMAIN_NOT_VERIFIED`. */
export function assertDomainVerified(options: ResolvedSSOOptions, found: FoundProvider): void {
  if (options.domainVerification?.enabled && found.domainVerified !== true)
    throw SSO_ERROR_CODES.fail("DOMAIN_NOT_VERIFIED", "UNAUTHORIZED");
}
