import type { EndpointContext, IdentifiedAccount, OAuthSignedIn } from "@latchkey/core";
import { hasOrganizationPlugin, membership } from "./access.js";
import type { FoundProvider } from "./oidc-provider.js";
import type { ProvisionedProvider, ProvisionUserInput, ResolvedSSOOptions } from "./options.js";

/** The provider as the provisioning callbacks see it (the reference's shape). */
export function provisionedProvider(found: FoundProvider): ProvisionedProvider {
  if (found.row) return { ...found.row, oidcConfig: found.config };
  return {
    providerId: found.providerId,
    issuer: found.issuer,
    domain: found.domain,
    userId: "default",
    organizationId: found.organizationId ?? null,
    oidcConfig: found.config,
    ...(found.domainVerified !== undefined ? { domainVerified: found.domainVerified } : {}),
  };
}

/** An unexpired pending invitation of the email to the organization: the invitation decides the role then. */
async function invitationPending(
  ctx: EndpointContext,
  organizationId: string,
  email: string,
): Promise<boolean> {
  const invitation = await ctx.context.adapter.findOne({
    model: "invitation",
    where: [
      { field: "organizationId", value: organizationId },
      { field: "email", value: email.toLowerCase() },
      { field: "status", value: "pending" },
      { field: "expiresAt", value: new Date(), operator: "gt" },
    ],
  });
  return invitation !== null;
}

/**
 * Makes the user a member of the organization with `getRole`'s role, else `defaultRole`, else
 * `member` (as the reference); nothing for an existing member or while an invitation of the
 * user's email is pending (the invitation then decides the role).
 */
export async function addMembership(
  ctx: EndpointContext,
  options: ResolvedSSOOptions,
  organizationId: string,
  input: ProvisionUserInput,
): Promise<void> {
  const settings = options.organizationProvisioning;
  if (await membership(ctx, organizationId, input.user.id)) return;
  if (await invitationPending(ctx, organizationId, input.user.email)) return;
  const role = settings?.getRole ? await settings.getRole(input) : (settings?.defaultRole ?? "member");
  await ctx.context.internalAdapter.create(
    "member",
    { organizationId, userId: input.user.id, role, createdAt: new Date() },
    ctx,
  );
}

/**
 * `organizationProvisioning` on an SSO sign-in: a provider bound to an organization makes
 * the user a member. Nothing without the organization plugin or when disabled.
 */
async function assignOrganization(
  ctx: EndpointContext,
  options: ResolvedSSOOptions,
  input: ProvisionUserInput,
): Promise<void> {
  const organizationId = input.provider.organizationId;
  if (options.organizationProvisioning?.disabled || !organizationId || !hasOrganizationPlugin(ctx)) return;
  await addMembership(ctx, options, organizationId, input);
}

/** The mapped profile the callbacks receive as `userInfo` (the reference's keys). */
function userInfoOf(identified: IdentifiedAccount): Record<string, unknown> {
  return { ...identified.user, id: identified.account.accountId };
}

/**
 * What runs after an SSO sign-in, before the session cookie: `provisionUser` (for a new user,
 * or every time with `provisionUserOnEveryLogin`), then organization provisioning.
 */
export async function afterSSOSignIn(
  ctx: EndpointContext,
  options: ResolvedSSOOptions,
  found: FoundProvider,
  signedIn: OAuthSignedIn,
  identified: IdentifiedAccount,
): Promise<void> {
  const input: ProvisionUserInput = {
    user: signedIn.user as ProvisionUserInput["user"],
    userInfo: userInfoOf(identified),
    token: identified.tokens,
    provider: provisionedProvider(found),
  };
  if (options.provisionUser && (signedIn.isRegister || options.provisionUserOnEveryLogin))
    await options.provisionUser(input);
  await assignOrganization(ctx, options, input);
}
