import { base64UrlEncode, utf8Encode } from "@latchkey/core";
import type { FoundProvider } from "./oidc-provider.js";

/** What a sign-in's state says about the provider it started with. */
export interface ProviderReference {
  providerId: string;
  authenticationConfigurationFingerprint: string;
}

/** JSON with object keys sorted at every level and undefined values left out, so equal configs give equal text. */
function canonicalJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJSON(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * SHA-256 (base64url) of the provider's authentication configuration: issuer, domain,
 * organization and OIDC config without the client secret. A callback whose provider no
 * longer has the fingerprint its sign-in started with is refused (spec "SSO" 2).
 */
export async function providerFingerprint(found: FoundProvider): Promise<string> {
  const { clientSecret: _secret, ...config } = found.config;
  const text = canonicalJSON({
    domain: found.domain,
    domainVerified: found.domainVerified ?? false,
    issuer: found.issuer,
    organizationId: found.organizationId ?? null,
    oidcConfig: config,
  });
  return base64UrlEncode(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Encode(text))));
}
