import type { EndpointContext } from "@latchkey/core";
import { SSO_ERROR_CODES } from "./error-codes.js";
import type { SSOProviderRow } from "./schema.js";

/** Whether the organization plugin is installed (then organization providers follow member roles). */
export const hasOrganizationPlugin = (ctx: EndpointContext): boolean =>
  (ctx.context.options.plugins ?? []).some((plugin) => plugin.id === "organization");

/** The caller's `member` row in an organization, or null. */
export async function membership(
  ctx: EndpointContext,
  organizationId: string,
  userId: string,
): Promise<{ role: string } | null> {
  return ctx.context.adapter.findOne<{ role: string }>({
    model: "member",
    where: [
      { field: "organizationId", value: organizationId },
      { field: "userId", value: userId },
    ],
  });
}

/** A comma-separated role list naming `owner` or `admin`. */
export const isOwnerOrAdmin = (role: string): boolean =>
  role.split(",").some((r) => r.trim() === "owner" || r.trim() === "admin");

/** Whether `userId` may read or change `provider` (the reference's rule). */
export async function canAccess(
  ctx: EndpointContext,
  provider: SSOProviderRow,
  userId: string,
): Promise<boolean> {
  if (provider.organizationId && hasOrganizationPlugin(ctx)) {
    const member = await membership(ctx, provider.organizationId, userId);
    return member !== null && isOwnerOrAdmin(member.role);
  }
  return provider.userId === userId;
}

/** The provider `providerId` names, when the caller may access it: else 404 or 403. */
export async function accessibleProvider(
  ctx: EndpointContext,
  providerId: string,
  userId: string,
): Promise<SSOProviderRow> {
  const provider = await ctx.context.adapter.findOne<SSOProviderRow>({
    model: "ssoProvider",
    where: [{ field: "providerId", value: providerId }],
  });
  if (!provider) throw SSO_ERROR_CODES.fail("PROVIDER_NOT_FOUND", "NOT_FOUND");
  if (!(await canAccess(ctx, provider, userId)))
    throw SSO_ERROR_CODES.fail("PROVIDER_ACCESS_DENIED", "FORBIDDEN");
  return provider;
}
