import { endpoint, getSessionFromRequest, sessionMiddleware } from "@latchkey/core";
import * as v from "valibot";
import { verifiedEmailRequired } from "../invitation-store.js";
import { findMember, findOrganization, withUser } from "../member-store.js";
import type { ResolvedOrganizationOptions } from "../options.js";
import { activeOrganizationId, fail, messageError } from "../route-kit.js";
import type { InvitationRow, OrganizationRow } from "../rows.js";

/**
 * `GET /organization/get-invitation?id` (the recipient): a pending, unexpired invitation with
 * `organizationName`, `organizationSlug` and `inviterEmail`.
 */
export function getInvitation(options: ResolvedOrganizationOptions) {
  const query = v.object({ id: v.string() });
  return endpoint("/organization/get-invitation", { method: "GET", query, requireHeaders: true }, async (ctx) => {
    const session = await getSessionFromRequest(ctx);
    if (!session) throw messageError("UNAUTHORIZED", "Not authenticated");
    const { adapter } = ctx.context;
    const invitation = await adapter.findOne<InvitationRow>({ model: "invitation", where: [{ field: "id", value: ctx.query.id }] });
    if (!invitation || invitation.status !== "pending" || new Date(invitation.expiresAt).getTime() < Date.now()) {
      throw messageError("BAD_REQUEST", "Invitation not found!");
    }
    if (invitation.email.toLowerCase() !== session.user.email.toLowerCase()) throw fail("YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION", "FORBIDDEN");
    if (verifiedEmailRequired(ctx, options) && !session.user.emailVerified) throw fail("EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION", "FORBIDDEN");
    const organization = await findOrganization(adapter, invitation.organizationId);
    if (!organization) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
    const inviter = await withUser(adapter, await findMember(adapter, invitation.inviterId, invitation.organizationId));
    if (!inviter) throw fail("INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION", "BAD_REQUEST");
    return { ...invitation, organizationName: organization.name, organizationSlug: organization.slug, inviterEmail: inviter.user.email };
  });
}

/** `GET /organization/list-invitations?organizationId`: every invitation of an organization the caller belongs to. */
export const listInvitations = endpoint(
  "/organization/list-invitations",
  { method: "GET", query: v.optional(v.object({ organizationId: v.optional(v.string()) })), requireHeaders: true, use: [sessionMiddleware] },
  async (ctx) => {
    const { session, adapter } = ctx.context;
    const organizationId = ctx.query?.organizationId || activeOrganizationId(session);
    if (!organizationId) throw messageError("BAD_REQUEST", "Organization ID is required");
    if (!(await findMember(adapter, session.user.id, organizationId))) throw messageError("FORBIDDEN", "You are not a member of this organization");
    return adapter.findMany<InvitationRow>({ model: "invitation", where: [{ field: "organizationId", value: organizationId }] });
  },
);

/**
 * `GET /organization/list-user-invitations`: the pending invitations addressed to the caller's
 * (verified) email, each with `organizationName`; a server call may name `?email` instead.
 */
export const listUserInvitations = endpoint(
  "/organization/list-user-invitations",
  { method: "GET", query: v.optional(v.object({ email: v.optional(v.string()) })) },
  async (ctx) => {
    const session = await getSessionFromRequest(ctx);
    if (ctx.request && ctx.query?.email) throw messageError("BAD_REQUEST", "User email cannot be passed for client side API calls.");
    if (session && !session.user.emailVerified) throw fail("EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION", "FORBIDDEN");
    const email = session?.user.email || ctx.query?.email;
    if (!email) throw messageError("BAD_REQUEST", "Missing session headers, or email query parameter.");
    const { adapter } = ctx.context;
    const invitations = await adapter.findMany<InvitationRow>({
      model: "invitation",
      where: [
        { field: "email", value: email.toLowerCase() },
        { field: "status", value: "pending" },
      ],
    });
    if (!invitations.length) return [];
    const ids = [...new Set(invitations.map((i) => i.organizationId))];
    const organizations = await adapter.findMany<OrganizationRow>({
      model: "organization",
      where: [{ field: "id", value: ids, operator: "in" }],
      limit: ids.length,
    });
    const names = new Map(organizations.map((o) => [o.id, o.name]));
    return invitations.map((i) => ({ ...i, organizationName: names.get(i.organizationId) }));
  },
);

