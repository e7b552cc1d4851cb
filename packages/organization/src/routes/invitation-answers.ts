import { APIError, endpoint, sessionMiddleware, setSessionCookie, type Adapter, type Session } from "@latchkey/core";
import * as v from "valibot";
import { moveInvitation, verifiedEmailRequired } from "../invitation-store.js";
import { membershipLimitReached, seatLimit } from "../limits.js";
import { findMember, findOrganization } from "../member-store.js";
import { withOrganizationLock } from "../org-lock.js";
import type { ResolvedOrganizationOptions } from "../options.js";
import { hasPermission } from "../permission.js";
import { fail, stillAllowed } from "../route-kit.js";
import type { InvitationRow, MemberRow } from "../rows.js";
import { joinTeam } from "../team-seats.js";
import { createTeamMember, findTeam } from "./members.js";

const body = v.object({ invitationId: v.string() });

const findInvitation = (ctx: { context: { adapter: Adapter } }, id: string) =>
  ctx.context.adapter.findOne<InvitationRow>({ model: "invitation", where: [{ field: "id", value: id }] });

const isLive = (invitation: InvitationRow | null): invitation is InvitationRow =>
  !!invitation && invitation.status === "pending" && new Date(invitation.expiresAt).getTime() >= Date.now();

/**
 * `POST /organization/accept-invitation` `{ invitationId }` (the recipient): joins the
 * organization (and the invitation's teams) and makes it active; answers `{ invitation, member }`.
 * One transaction under the organization lock: the status moves `pending → accepted` by a
 * conditional update (of ten parallel accepts one wins), the team seats and the member row
 * follow, and any refusal (no seat left) rolls all of it back, the invitation still pending.
 */
export function acceptInvitation(options: ResolvedOrganizationOptions) {
  return endpoint("/organization/accept-invitation", { method: "POST", body, requireHeaders: true, use: [sessionMiddleware] }, async (ctx) => {
    const { session, adapter, internalAdapter } = ctx.context;
    const first = await findInvitation(ctx, ctx.body.invitationId);
    if (!isLive(first)) throw fail("INVITATION_NOT_FOUND", "BAD_REQUEST");
    let activeTeam: string | null = null;
    const outcome = await withOrganizationLock(ctx, first.organizationId, async () => {
      const invitation = await findInvitation(ctx, ctx.body.invitationId);
      if (!isLive(invitation)) throw fail("INVITATION_NOT_FOUND", "BAD_REQUEST");
      if (invitation.email.toLowerCase() !== session.user.email.toLowerCase()) throw fail("YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION", "FORBIDDEN");
      if (verifiedEmailRequired(ctx, options) && !session.user.emailVerified) {
        throw fail("EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION", "FORBIDDEN");
      }
      const organization = await findOrganization(adapter, invitation.organizationId);
      if (!organization) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
      if (await membershipLimitReached(ctx, options, session.user, organization)) throw fail("ORGANIZATION_MEMBERSHIP_LIMIT_REACHED", "FORBIDDEN");
      await options.organizationHooks?.beforeAcceptInvitation?.({ invitation, user: session.user, organization });
      const accepted = await moveInvitation(adapter, invitation.id, "accepted", "pending");
      if (!accepted) throw fail("INVITATION_NOT_FOUND", "BAD_REQUEST");
      const teamIds = options.teamsEnabled && accepted.teamId ? accepted.teamId.split(",") : [];
      for (const teamId of teamIds) {
        if (!(await findTeam(ctx, teamId, accepted.organizationId))) throw fail("TEAM_NOT_FOUND", "BAD_REQUEST");
        const maximum = await seatLimit(options, { teamId, organizationId: accepted.organizationId, session });
        const joined = await joinTeam(adapter, { teamId, userId: session.user.id, maximum }, createTeamMember(ctx));
        if (joined.status === "limitReached") throw fail("TEAM_MEMBER_LIMIT_REACHED", "FORBIDDEN");
      }
      if (teamIds.length === 1) activeTeam = teamIds[0]!;
      const member = (await internalAdapter.create<MemberRow>("member", {
        organizationId: accepted.organizationId,
        userId: session.user.id,
        role: accepted.role,
        createdAt: new Date(),
      }))!;
      return { invitation: accepted, member, organization };
    });
    const update: Record<string, unknown> = { activeOrganizationId: outcome.invitation.organizationId };
    if (activeTeam) update.activeTeamId = activeTeam;
    const stored = await internalAdapter.updateSession(session.session.token, update);
    // Reference: the session cookies are re-issued only when a single team became active.
    if (activeTeam) await setSessionCookie(ctx, { session: stored ?? ({ ...session.session, ...update } as Session), user: session.user });
    await options.organizationHooks?.afterAcceptInvitation?.({ ...outcome, user: session.user });
    return { invitation: outcome.invitation, member: outcome.member };
  });
}

/** `POST /organization/reject-invitation` `{ invitationId }` (the recipient): `{ invitation, member: null }`. */
export function rejectInvitation(options: ResolvedOrganizationOptions) {
  return endpoint("/organization/reject-invitation", { method: "POST", body, requireHeaders: true, use: [sessionMiddleware] }, async (ctx) => {
    const { session, adapter } = ctx.context;
    const notFound = () => new APIError("BAD_REQUEST", { message: "Invitation not found!", code: "INVITATION_NOT_FOUND" });
    const invitation = await findInvitation(ctx, ctx.body.invitationId);
    if (!invitation || invitation.status !== "pending") throw notFound();
    if (invitation.email.toLowerCase() !== session.user.email.toLowerCase()) throw fail("YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION", "FORBIDDEN");
    if (verifiedEmailRequired(ctx, options) && !session.user.emailVerified) {
      throw fail("EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION", "FORBIDDEN");
    }
    const organization = await findOrganization(adapter, invitation.organizationId);
    if (!organization) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
    await options.organizationHooks?.beforeRejectInvitation?.({ invitation, user: session.user, organization });
    // Only a still-pending invitation is rejected: one accepted meanwhile stays accepted.
    const rejected = await moveInvitation(adapter, invitation.id, "rejected", "pending");
    if (!rejected) throw notFound();
    await options.organizationHooks?.afterRejectInvitation?.({ invitation: rejected, user: session.user, organization });
    return { invitation: rejected, member: null };
  });
}

/** `POST /organization/cancel-invitation` `{ invitationId }` (needs `invitation:cancel`): the canceled invitation. */
export function cancelInvitation(options: ResolvedOrganizationOptions) {
  return endpoint("/organization/cancel-invitation", { method: "POST", body, requireHeaders: true, use: [sessionMiddleware] }, async (ctx) => {
    const { session, adapter } = ctx.context;
    const invitation = await findInvitation(ctx, ctx.body.invitationId);
    if (!invitation) throw fail("INVITATION_NOT_FOUND", "BAD_REQUEST");
    const organizationId = invitation.organizationId;
    const member = await findMember(adapter, session.user.id, organizationId);
    if (!member) throw fail("MEMBER_NOT_FOUND", "BAD_REQUEST");
    const permissions = { invitation: ["cancel"] };
    if (!(await hasPermission(adapter, options, { role: member.role, organizationId, permissions }))) {
      throw fail("YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION", "FORBIDDEN");
    }
    const organization = await findOrganization(adapter, organizationId);
    if (!organization) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
    await options.organizationHooks?.beforeCancelInvitation?.({ invitation, cancelledBy: session.user, organization });
    const canceled = await withOrganizationLock(ctx, organizationId, async () => {
      await stillAllowed(ctx, options, {
        userId: session.user.id,
        organizationId,
        permissions,
        notMember: ["MEMBER_NOT_FOUND", "BAD_REQUEST"],
        denied: "YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION",
      });
      return moveInvitation(adapter, invitation.id, "canceled");
    });
    await options.organizationHooks?.afterCancelInvitation?.({ invitation: canceled ?? invitation, cancelledBy: session.user, organization });
    return canceled;
  });
}
