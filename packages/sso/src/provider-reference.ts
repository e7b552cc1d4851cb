import { base64UrlEncode, utf8Encode } from "@latchkey/core";
import type { FoundProvider } from "./oidc-provider.js";

/** The key of the flow's `serverContext` that names the provider a sign-in started with (the reference's). */
export const PROVIDER_STATE_KEY = "ssoProviderReference";

/** Where a provider comes from: a table row (by its record id) or `defaultSSO`. */
export type ProviderSource = { type: "persisted"; recordId: string } | { type: "configured" };

/** What a sign-in's state says about its provider, in the reference's shape. */
export interface ProviderReference {
  providerId: string;
  source: ProviderSource;
  authenticationConfigurationFingerprint: string;
}

/**
 * Canonical JSON as the reference writes it for the fingerprint: object keys sorted at every
 * level, undefined members left out (undefined array entries as `null`), so equal
 * configurations hash equally on both implementations.
 */
function canonicalJSON(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value))
    return `[${value.map((entry) => (entry === undefined ? "null" : canonicalJSON(entry))).join(",")}]`;
  switch (typeof value) {
    case "boolean":
    case "number":
    case "string":
      return JSON.stringify(value);
    case "object": {
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, entry]) => entry !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJSON(entry)}`).join(",")}}`;
    }
    default:
      throw new TypeError("SSO provider configuration must be JSON-serializable");
  }
}

/**
 * SHA-256 (base64url, unpadded) of what decides how a provider authenticates: domain, domain
 * verification (when the column exists), issuer, organization, the stored OIDC configuration
 * without its client secret, and the SAML configuration (none here). Byte for byte the
 * reference's, so a sign-in started on either implementation is checked on the other.
 */
export async function providerFingerprint(found: FoundProvider): Promise<string> {
  const text = canonicalJSON({
    domain: found.domain,
    domainVerified: found.domainVerified,
    issuer: found.issuer,
    organizationId: found.organizationId,
    oidcConfig: { ...found.storedConfig, clientSecret: undefined },
    samlConfig: found.samlConfig ?? undefined,
  });
  return base64UrlEncode(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Encode(text))));
}

/** The reference to keep in the flow's `serverContext` at sign-in. */
export const providerReference = async (found: FoundProvider): Promise<ProviderReference> => ({
  providerId: found.providerId,
  source: found.source,
  authenticationConfigurationFingerprint: await providerFingerprint(found),
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Reads a reference from state; null unless it is well formed. */
export function parseProviderReference(value: unknown): ProviderReference | null {
  if (!isRecord(value) || !isRecord(value.source)) return null;
  const { providerId, authenticationConfigurationFingerprint: fingerprint, source } = value;
  if (typeof providerId !== "string" || !providerId) return null;
  if (typeof fingerprint !== "string" || !fingerprint) return null;
  if (source.type === "configured")
    return {
      providerId,
      source: { type: "configured" },
      authenticationConfigurationFingerprint: fingerprint,
    };
  if (source.type === "persisted" && typeof source.recordId === "string" && source.recordId)
    return {
      providerId,
      source: { type: "persisted", recordId: source.recordId },
      authenticationConfigurationFingerprint: fingerprint,
    };
  return null;
}

/** Whether `found` is still the provider, configured as it was, that `reference` names. */
export async function isCurrentReference(
  found: FoundProvider,
  reference: ProviderReference,
): Promise<boolean> {
  if (reference.providerId !== found.providerId) return false;
  if (reference.source.type !== found.source.type) return false;
  if (
    found.source.type === "persisted" &&
    (reference.source.type !== "persisted" || reference.source.recordId !== found.source.recordId)
  )
    return false;
  return reference.authenticationConfigurationFingerprint === (await providerFingerprint(found));
}
