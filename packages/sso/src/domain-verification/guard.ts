import { referenceError } from "../error-codes.js";
import type { FoundProvider } from "../oidc-provider.js";
import type { ResolvedSSOOptions } from "../options.js";

/** With verification on, nobody signs in through a provider whose domain is unproven: 401 with the reference's message (no code). */
export function assertDomainVerified(options: ResolvedSSOOptions, found: FoundProvider): void {
  if (options.domainVerification?.enabled && found.domainVerified !== true)
    throw referenceError("UNAUTHORIZED", "DOMAIN_NOT_VERIFIED");
}
