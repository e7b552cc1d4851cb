import type { EndpointContext } from "@latchkey/core";
import type { FoundProvider } from "./oidc-provider.js";
import type { ResolvedSSOOptions } from "./options.js";
import { parseOIDCConfig, type SSOProviderRow, type StoredOIDCConfig } from "./schema.js";

/** What a sign-in names its provider by. */
export interface ProviderQuery {
  providerId?: string | undefined;
  domain?: string | undefined;
  email?: string | undefined;
}

/** Whether `domain` is one of a comma-separated list, or a subdomain of one. */
export function domainMatches(list: string, domain: string): boolean {
  const wanted = domain.toLowerCase();
  return list
    .split(",")
    .map((d) => d.trim().toLowerCase())
    .some((d) => d !== "" && (wanted === d || wanted.endsWith(`.${d}`)));
}

const fromRow = (row: SSOProviderRow): FoundProvider | null => {
  const config = parseOIDCConfig(row);
  if (!config) return null;
  return {
    providerId: row.providerId,
    issuer: row.issuer,
    config,
    domain: row.domain,
    domainVerified: row.domainVerified,
    organizationId: row.organizationId,
    row,
  };
};

/** A provider by its id: `defaultSSO` first, then the table. */
export async function providerById(
  ctx: EndpointContext,
  options: ResolvedSSOOptions,
  providerId: string,
): Promise<FoundProvider | null> {
  const configured = options.defaultSSO.find((p) => p.providerId === providerId && p.oidcConfig);
  if (configured?.oidcConfig)
    return {
      providerId,
      issuer: configured.oidcConfig.issuer,
      config: configured.oidcConfig as StoredOIDCConfig,
      domain: configured.domain,
      // Configured in code: the operator vouches for the domain (the reference's rule).
      domainVerified: options.domainVerification?.enabled ? true : undefined,
    };
  const row = await ctx.context.adapter.findOne<SSOProviderRow>({
    model: "ssoProvider",
    where: [{ field: "providerId", value: providerId }],
  });
  return row ? fromRow(row) : null;
}

/**
 * The provider a sign-in names, in the reference's order: `defaultSSO` (by id or domain),
 * the table by `providerId`, by exact `domain`, then any provider whose domain list covers
 * the email's domain (exactly or as a parent domain).
 */
export async function findProvider(
  ctx: EndpointContext,
  options: ResolvedSSOOptions,
  query: ProviderQuery,
): Promise<FoundProvider | null> {
  const domain = query.domain ?? query.email?.split("@").pop();
  if (query.providerId) return providerById(ctx, options, query.providerId);
  if (!domain) return null;
  const configured = options.defaultSSO.find((p) => p.oidcConfig && domainMatches(p.domain, domain));
  if (configured) return providerById(ctx, options, configured.providerId);
  const exact = await ctx.context.adapter.findOne<SSOProviderRow>({
    model: "ssoProvider",
    where: [{ field: "domain", value: domain }],
  });
  if (exact) return fromRow(exact);
  const rows = await ctx.context.adapter.findMany<SSOProviderRow>({ model: "ssoProvider" });
  const covering = rows.find((row) => domainMatches(row.domain, domain));
  return covering ? fromRow(covering) : null;
}
