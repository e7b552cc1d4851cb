import { APIError, endpoint, fail as coreFail, isEmail, sessionMiddleware, type EndpointContext, type SessionWithUser } from "@latchkey/core";
import * as v from "valibot";
import { additionalFieldEntries, pickAdditional } from "../additional-fields.js";
import { mergeHookData } from "../hooks.js";
import { pendingInvitations, moveInvitation, teamIdList } from "../invitation-store.js";
import { findMember, findMemberByEmail, findOrganization } from "../member-store.js";
import { seatLimit } from "../limits.js";
import { withOrganizationLock } from "../org-lock.js";
import type { ResolvedOrganizationOptions } from "../options.js";
import { hasPermission } from "../permission.js";
import { activeOrganizationId, fail, stillAllowed } from "../route-kit.js";
import type { InvitationRow, MemberRow, OrganizationRow } from "../rows.js";
import { unknownRoles } from "./member-role.js";
import { findTeam } from "./members.js";

/** The invitation limit of an organization (default 100 pending). */
async function invitationLimit(
  ctx: EndpointContext,
  options: ResolvedOrganizationOptions,
  data: { user: SessionWithUser["user"]; organization: OrganizationRow; member: MemberRow },
): Promise<number> {
  const limit = options.invitationLimit;
  return typeof limit === "function" ? limit(data, ctx.context) : (limit ?? 100);
}

/** Checks the requested teams: no reserved `,`, each a team of the organization with a seat left. */
async function checkTeams(
  ctx: EndpointContext,
  options: ResolvedOrganizationOptions,
  session: SessionWithUser,
  organizationId: string,
  teamIds: string[],
): Promise<void> {
  if (!options.teamsEnabled || !teamIds.length) return;
  if (teamIds.some((id) => id.includes(","))) throw fail("INVALID_TEAM_ID", "BAD_REQUEST");
  for (const teamId of teamIds) if (!(await findTeam(ctx, teamId, organizationId))) throw fail("TEAM_NOT_FOUND", "BAD_REQUEST");
  for (const teamId of teamIds) {
    const maximum = await seatLimit(options, { teamId, organizationId, session });
    if (maximum === undefined) continue;
    const taken = await ctx.context.adapter.count({ model: "teamMember", where: [{ field: "teamId", value: teamId }] });
    if (taken >= maximum) throw fail("TEAM_MEMBER_LIMIT_REACHED", "FORBIDDEN");
  }
}

/** Sends the invitation mail with the reference's `data` shape. */
async function sendMail(
  ctx: EndpointContext,
  options: ResolvedOrganizationOptions,
  invitation: InvitationRow,
  organization: OrganizationRow,
  member: MemberRow,
  session: SessionWithUser,
): Promise<void> {
  await options.sendInvitationEmail?.(
    {
      id: invitation.id,
      role: invitation.role ?? "",
      email: invitation.email.toLowerCase(),
      organization,
      inviter: { ...member, user: session.user },
      invitation,
    },
    ctx.request,
  );
}

/**
 * `POST /organization/invite-member` `{ email, role, organizationId?, resend?, teamId? }`
 * (needs `invitation:create`): a pending invitation, mailed through `sendInvitationEmail`.
 * `resend` extends a pending one instead; `cancelPendingInvitationsOnReInvite` cancels it.
 * The write is made under the organization lock after the caller's membership, the duplicate
 * and the limit are checked again, so a member removed meanwhile invites no one.
 */
export function createInvitation(options: ResolvedOrganizationOptions) {
  const body = v.object({
    email: v.string(),
    role: v.union([v.string(), v.array(v.string())]),
    organizationId: v.optional(v.string()),
    resend: v.optional(v.boolean()),
    teamId: v.optional(v.union([v.string(), v.array(v.string())])),
    ...additionalFieldEntries(options.schema?.invitation?.additionalFields),
  });
  return endpoint("/organization/invite-member", { method: "POST", body, requireHeaders: true, use: [sessionMiddleware] }, async (ctx) => {
    const { session, adapter } = ctx.context;
    const organizationId = ctx.body.organizationId || activeOrganizationId(session);
    if (!organizationId) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
    const email = ctx.body.email.toLowerCase();
    if (!isEmail(email)) throw coreFail("BAD_REQUEST", "INVALID_EMAIL");
    const member = await findMember(adapter, session.user.id, organizationId);
    if (!member) throw fail("MEMBER_NOT_FOUND", "BAD_REQUEST");
    const permissions = { invitation: ["create"] };
    if (!(await hasPermission(adapter, options, { role: member.role, organizationId, permissions }))) {
      throw fail("YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION", "FORBIDDEN");
    }
    const role = [ctx.body.role].flat().join(",");
    const names = role.split(",").map((r) => r.trim()).filter(Boolean);
    const unknown = await unknownRoles(adapter, options, organizationId, names);
    // Reference: this one carries the code only inside its message.
    if (unknown.length) throw new APIError("BAD_REQUEST", { message: `ROLE_NOT_FOUND: ${unknown.join(", ")}` });
    const callerIsCreator = member.role.split(",").map((r) => r.trim()).includes(options.creatorRole);
    if (!callerIsCreator && role.split(",").includes(options.creatorRole)) {
      throw fail("YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE", "FORBIDDEN");
    }
    if (await findMemberByEmail(adapter, email, organizationId)) throw fail("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION", "BAD_REQUEST");
    const pending = await pendingInvitations(adapter, organizationId, email);
    if (pending.length && !ctx.body.resend && !options.cancelPendingInvitationsOnReInvite) {
      throw fail("USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION", "BAD_REQUEST");
    }
    const organization = await findOrganization(adapter, organizationId);
    if (!organization) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
    if (pending.length && ctx.body.resend) {
      const expiresAt = new Date(Date.now() + options.invitationExpiresIn * 1000);
      await adapter.update({ model: "invitation", where: [{ field: "id", value: pending[0]!.id }], update: { expiresAt } });
      const resent = { ...pending[0]!, expiresAt };
      await sendMail(ctx, options, resent, organization, member, session);
      return resent;
    }
    const limitData = { user: session.user, organization, member };
    const limit = await invitationLimit(ctx, options, limitData);
    if ((await pendingInvitations(adapter, organizationId)).length >= limit) throw fail("INVITATION_LIMIT_REACHED", "FORBIDDEN");
    const teamIds = teamIdList(ctx.body.teamId);
    await checkTeams(ctx, options, session, organizationId, teamIds);
    let data: Record<string, unknown> = {
      role,
      email,
      organizationId,
      ...pickAdditional(ctx.body, options.schema?.invitation?.additionalFields),
    };
    const hooks = options.organizationHooks;
    if (hooks?.beforeCreateInvitation) {
      const invitation = { ...data, teamIds, inviterId: session.user.id, teamId: teamIds[0] };
      data = mergeHookData(data, await hooks.beforeCreateInvitation({ invitation, inviter: session.user, organization }));
    }
    const invitation = await withOrganizationLock(ctx, organizationId, async () => {
      await stillAllowed(ctx, options, {
        userId: session.user.id,
        organizationId,
        permissions,
        notMember: ["MEMBER_NOT_FOUND", "BAD_REQUEST"],
        denied: "YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION",
      });
      // Checked again under the lock: two invitations of one email racing each other.
      const stillPending = await pendingInvitations(adapter, organizationId, email);
      if (stillPending.length && !options.cancelPendingInvitationsOnReInvite) {
        throw fail("USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION", "BAD_REQUEST");
      }
      for (const old of stillPending) await moveInvitation(adapter, old.id, "canceled", "pending");
      if ((await pendingInvitations(adapter, organizationId)).length >= limit) throw fail("INVITATION_LIMIT_REACHED", "FORBIDDEN");
      const { teamIds: _ids, ...row } = data as Record<string, unknown> & { teamIds?: unknown };
      return (await ctx.context.internalAdapter.create<InvitationRow>("invitation", {
        status: "pending",
        expiresAt: new Date(Date.now() + options.invitationExpiresIn * 1000),
        createdAt: new Date(),
        inviterId: session.user.id,
        ...row,
        ...(options.teamsEnabled ? { teamId: teamIds.length ? teamIds.join(",") : null } : {}),
      }))!;
    });
    await sendMail(ctx, options, invitation, organization, member, session);
    await hooks?.afterCreateInvitation?.({ invitation, inviter: session.user, organization });
    return invitation;
  });
}
