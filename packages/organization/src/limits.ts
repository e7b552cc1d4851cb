import { APIError, type EndpointContext, type SessionWithUser, type User } from "@latchkey/core";
import type { ResolvedOrganizationOptions } from "./options.js";
import type { OrganizationRow } from "./rows.js";

/** Whether `organization` already has as many members as `membershipLimit` allows (default 100). */
export async function membershipLimitReached(
  ctx: EndpointContext,
  options: ResolvedOrganizationOptions,
  user: User,
  organization: OrganizationRow,
): Promise<boolean> {
  const configured = options.membershipLimit || 100;
  const limit = typeof configured === "number" ? configured : await configured(user, organization);
  const count = await ctx.context.adapter.count({ model: "member", where: [{ field: "organizationId", value: organization.id }] });
  return count >= limit;
}

/**
 * The seat limit of one team, or undefined when unlimited. A limit computed per team needs a
 * session to be asked about (reference: 401 without one).
 */
export async function seatLimit(
  options: ResolvedOrganizationOptions,
  input: { teamId: string; organizationId: string; session: SessionWithUser | null },
): Promise<number | undefined> {
  const configured = options.teams?.maximumMembersPerTeam;
  if (configured === undefined) return undefined;
  if (typeof configured === "number") return configured;
  if (!input.session) throw new APIError("UNAUTHORIZED");
  return configured({ teamId: input.teamId, organizationId: input.organizationId, session: input.session });
}
