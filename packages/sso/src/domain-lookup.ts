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

/**
 * The provider for an email domain, as the reference finds it: a row whose `domain` is exactly
 * the domain, else the first row whose comma-separated list covers it (exactly or as a parent).
 */
export async function findByEmailDomain(ctx: EndpointContext, domain: string): Promise<SSOProviderRow | null> {
  const exact = await ctx.context.adapter.findOne<SSOProviderRow>({
    model: "ssoProvider",
    where: [{ field: "domain", value: domain }],
  });
  if (exact) return exact;
  const rows = await ctx.context.adapter.findMany<SSOProviderRow>({ model: "ssoProvider" });
  return rows.find((row) => covers(row.domain, domain)) ?? null;
}
