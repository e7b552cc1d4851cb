import type * as NodeDNS from "node:dns/promises";
import type { DomainVerificationOptions } from "../options.js";

/** Thrown when no resolver can run here (no `node:dns` and no `resolveTxt` option). */
export class ResolverUnavailableError extends Error {
  constructor(cause: unknown) {
    super("node:dns is not available in this runtime; set domainVerification.resolveTxt", { cause });
    this.name = "ResolverUnavailableError";
  }
}

/** How long one TXT lookup may take before it counts as failed. */
const LOOKUP_TIMEOUT_MS = 5000;

/**
 * The TXT records at `hostname`, each record's strings joined (RFC 7208 §3.3 style): through
 * the operator's `resolveTxt`, else a `node:dns` `Resolver` (the configured name servers, else
 * the system's). `node:dns` is imported on first use, so edge runtimes that never verify a
 * domain never load it. A name without records answers `[]`; other lookup failures throw.
 */
export async function lookupTxt(options: DomainVerificationOptions, hostname: string): Promise<string[]> {
  if (options.resolveTxt) return (await options.resolveTxt(hostname)).map((parts) => parts.join(""));
  let dns: typeof NodeDNS;
  try {
    dns = await import("node:dns/promises");
  } catch (error) {
    throw new ResolverUnavailableError(error);
  }
  const resolver = new dns.Resolver({ timeout: LOOKUP_TIMEOUT_MS, tries: 2 });
  if (options.nameservers?.length) resolver.setServers(options.nameservers);
  try {
    return (await resolver.resolveTxt(hostname)).map((parts) => parts.join(""));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOTFOUND" || code === "ENODATA") return [];
    throw error;
  }
}
