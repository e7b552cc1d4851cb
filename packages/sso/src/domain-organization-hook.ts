import type { EndpointContext, HookEntry, User } from "@latchkey/core";
import { hasOrganizationPlugin } from "./access.js";
import { parseProviderDomains } from "./domains.js";
import type { ResolvedSSOOptions } from "./options.js";
import { addMembership } from "./provisioning.js";
import { parseOIDCConfig, type SSOProviderRow, type StoredOIDCConfig } from "./schema.js";

const PAGE_SIZE = 100;

/** The single host of a user's email, or null. */
function emailDomain(email: string): string | null {
  const parts = email.trim().toLowerCase().split("@");
  if (parts.length !== 2 || !parts[0] || !parts[1]) return null;
  const domains = parseProviderDomains(parts[1]);
  return domains?.length === 1 ? domains[0]! : null;
}

/** Verified providers whose domain list covers `domain` and that belong to an organization, by providerId. */
async function verifiedOrganizationProviders(
  ctx: EndpointContext,
  domain: string,
): Promise<SSOProviderRow[]> {
  const found: SSOProviderRow[] = [];
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const page = await ctx.context.adapter.findMany<SSOProviderRow>({
      model: "ssoProvider",
      where: [{ field: "domainVerified", value: true }],
      limit: PAGE_SIZE,
      offset,
      sortBy: { field: "providerId", direction: "asc" },
    });
    for (const row of page) {
      const covers = parseProviderDomains(row.domain)?.some((d) => domain === d || domain.endsWith(`.${d}`));
      if (covers && row.organizationId) found.push(row);
    }
    if (page.length < PAGE_SIZE) return found;
  }
}

/**
 * After core's OAuth callbacks (`/callback/:id`, social and Generic OAuth): a user whose
 * verified email is in a verified SSO domain becomes a member of that provider's
 * organization (the reference's verified-domain assignment). Needs the organization plugin
 * and `domainVerification.enabled`; skipped when provisioning is disabled, when the user's
 * email is unverified, and when the domain maps to more than one organization.
 */
export function verifiedDomainOrganizationHook(options: ResolvedSSOOptions): HookEntry {
  return {
    matcher: "*",
    when: (ctx) => ctx.path.startsWith("/callback/"),
    handler: async (ctx: EndpointContext) => {
      const created = ctx.context.newSession;
      if (!created?.user || !hasOrganizationPlugin(ctx)) return;
      if (options.organizationProvisioning?.disabled || !options.domainVerification?.enabled) return;
      const user = await ctx.context.internalAdapter.findUserById(created.user.id);
      if (!user?.emailVerified) return;
      const domain = emailDomain(user.email);
      if (!domain) return;
      const providers = await verifiedOrganizationProviders(ctx, domain);
      if (new Set(providers.map((p) => p.organizationId)).size > 1) {
        ctx.context.logger.warn(
          "Skipped SSO organization provisioning: a verified domain maps to several organizations",
        );
        return;
      }
      const provider = providers[0];
      if (!provider?.organizationId) return;
      await addMembership(ctx, options, provider.organizationId, {
        user: user as User & Record<string, unknown>,
        userInfo: {},
        token: undefined,
        provider: { ...provider, oidcConfig: parseOIDCConfig(provider) ?? ({} as StoredOIDCConfig) },
      });
    },
  };
}
