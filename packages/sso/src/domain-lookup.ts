import type { EndpointContext } from "@latchkey/core";
import type { SSOProviderRow } from "./schema.js";

/** Whether `domain` is one of a comma-separated list, or a subdomain of one. */
function covers(list: string, domain: string): boolean {
  const wanted = domain.toLowerCase();
  return list
    .split(",")
    .map((d) => d.trim().toLowerCase())
    .some((d) => d !== "" && (wanted === d || wanted.endsWith(`.${d}`)));
}

/** `sub.acme.example` → `sub.acme.example`, `acme.example`, `example`: the domains that cover it. */
export function coveringDomains(domain: string): string[] {
  const labels = domain.toLowerCase().split(".");
  return labels.map((_, i) => labels.slice(i).join(".")).filter((d) => d !== "");
}

/**
 * The provider for an email domain. The reference reads the row whose `domain` is exactly the
 * domain, else every row to find one whose comma-separated list covers it. Here, on the
 * `domain` index: the exact row, else the most specific single-domain row among the domain's
 * parents (`domain IN (…)`); only when neither exists are the rows holding lists read (those
 * whose `domain` has a comma), so a sign-in by a registered domain or subdomain never reads
 * the whole table.
 */
export async function findByEmailDomain(
  ctx: EndpointContext,
  domain: string,
): Promise<SSOProviderRow | null> {
  const { adapter } = ctx.context;
  const exact = await adapter.findOne<SSOProviderRow>({
    model: "ssoProvider",
    where: [{ field: "domain", value: domain }],
  });
  if (exact) return exact;
  const candidates = coveringDomains(domain);
  if (candidates.length) {
    const parents = await adapter.findMany<SSOProviderRow>({
      model: "ssoProvider",
      where: [{ field: "domain", operator: "in", value: candidates }],
    });
    const best = candidates.map((c) => parents.find((row) => row.domain === c)).find(Boolean);
    if (best) return best;
  }
  const lists = await adapter.findMany<SSOProviderRow>({
    model: "ssoProvider",
    where: [{ field: "domain", operator: "contains", value: "," }],
  });
  return lists.find((row) => covers(row.domain, domain)) ?? null;
}
