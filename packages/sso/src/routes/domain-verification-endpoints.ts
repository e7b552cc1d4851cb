import type { ResolvedSSOOptions } from "../options.js";
import { requestDomainVerification, verifyDomain } from "./domain-verification.js";

/** The verification routes, mounted only with `domainVerification.enabled` (as the reference). */
export const domainVerificationEndpoints = (options: ResolvedSSOOptions) =>
  (options.domainVerification?.enabled
    ? { requestDomainVerification: requestDomainVerification(options), verifyDomain: verifyDomain(options) }
    : {}) as Partial<{
    requestDomainVerification: ReturnType<typeof requestDomainVerification>;
    verifyDomain: ReturnType<typeof verifyDomain>;
  }>;
