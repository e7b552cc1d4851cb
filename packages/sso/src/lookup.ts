import type { EndpointContext } from "@latchkey/core";
import { hasOrganizationPlugin } from "./access.js";
import { findByEmailDomain } from "./domain-lookup.js";
import type { FoundProvider } from "./oidc-provider.js";
import type { DefaultSSOProvider, ResolvedSSOOptions } from "./options.js";
import { parseOIDCConfig, type SSOProviderRow, type StoredOIDCConfig } from "./schema.js";

/** What a sign-in names its provider by. */
export interface ProviderQuery {
  providerId?: string | undefined;
  domain?: string | undefined;
  email?: string | undefined;
  organizationSlug?: string | undefined;
}

/** Whether `domain` is one of a comma-separated list, or a subdomain of one. */
export function domainMatches(list: string, domain: string): boolean {
  const wanted = domain.toLowerCase();
  return list
    .split(",")
    .map((d) => d.trim().toLowerCase())
    .some((d) => d !== "" && (wanted === d || wanted.endsWith(`.${d}`)));
}

const parseJSON = (text: unknown): unknown => {
  if (typeof text !== "string" || !text) return undefined;
  try {
    return JSON.parse(text) ?? undefined;
  } catch {
    return undefined;
  }
};

/** A table row as a found provider; null without a usable OIDC configuration. */
export function fromRow(row: SSOProviderRow): FoundProvider | null {
  const config = parseOIDCConfig(row);
  if (!config) return null;
  return {
    providerId: row.providerId,
    issuer: row.issuer,
    config,
    storedConfig: { ...config },
    samlConfig: parseJSON(row.samlConfig),
    domain: row.domain,
    ...("domainVerified" in row ? { domainVerified: row.domainVerified } : {}),
    organizationId: row.organizationId,
    row,
    source: { type: "persisted", recordId: row.id },
  };
}

/** A `defaultSSO` entry as a found provider (as the reference sees it: no organization). */
function fromConfigured(options: ResolvedSSOOptions, configured: DefaultSSOProvider): FoundProvider | null {
  if (!configured.oidcConfig) return null;
  const verification = (options as { domainVerification?: { enabled?: boolean } }).domainVerification;
  return {
    providerId: configured.providerId,
    issuer: configured.oidcConfig.issuer,
    config: configured.oidcConfig as StoredOIDCConfig,
    storedConfig: { ...configured.oidcConfig },
    samlConfig: configured.samlConfig,
    domain: configured.domain,
    ...(verification?.enabled ? { domainVerified: true } : {}),
    source: { type: "configured" },
  };
}

/** A provider by its id: `defaultSSO` first, then the table. */
export async function providerById(
  ctx: EndpointContext,
  options: ResolvedSSOOptions,
  providerId: string,
): Promise<FoundProvider | null> {
  const configured = options.defaultSSO.find((p) => p.providerId === providerId);
  if (configured) return fromConfigured(options, configured);
  const row = await ctx.context.adapter.findOne<SSOProviderRow>({
    model: "ssoProvider",
    where: [{ field: "providerId", value: providerId }],
  });
  return row ? fromRow(row) : null;
}

/** The id of the organization with `slug` (organization plugin installed), else null. */
async function organizationIdOf(ctx: EndpointContext, slug: string): Promise<string | null> {
  if (!hasOrganizationPlugin(ctx)) return null;
  const organization = await ctx.context.adapter.findOne<{ id: string }>({
    model: "organization",
    where: [{ field: "slug", value: slug }],
  });
  return organization?.id ?? null;
}

/**
 * The provider a sign-in names, in the reference's order: `defaultSSO` (by id, else by
 * domain), the table by `providerId`, else by the organization of `organizationSlug`, else by
 * the email's domain (exact, then any provider whose list covers it). `"missing"` when the
 * request names nothing to look up by, `"unusable"` for a row without an OIDC configuration.
 */
export async function findProvider(
  ctx: EndpointContext,
  options: ResolvedSSOOptions,
  query: ProviderQuery,
): Promise<FoundProvider | null | "missing" | "unusable"> {
  const domain = query.domain || query.email?.split("@")[1];
  const organizationId = query.organizationSlug ? await organizationIdOf(ctx, query.organizationSlug) : null;
  const configured = query.providerId
    ? options.defaultSSO.find((p) => p.providerId === query.providerId)
    : domain
      ? options.defaultSSO.find((p) => domainMatches(p.domain, domain))
      : undefined;
  if (configured) return fromConfigured(options, configured);
  if (!query.providerId && !organizationId && !domain) return "missing";
  if (query.providerId || organizationId) {
    const row = await ctx.context.adapter.findOne<SSOProviderRow>({
      model: "ssoProvider",
      where: [
        query.providerId
          ? { field: "providerId", value: query.providerId }
          : { field: "organizationId", value: organizationId! },
      ],
    });
    return row ? (fromRow(row) ?? "unusable") : null;
  }
  const row = await findByEmailDomain(ctx, domain!);
  return row ? (fromRow(row) ?? "unusable") : null;
}
