import type { Adapter, EndpointContext } from "@latchkey/core";
import type { ResolvedOrganizationOptions } from "./options.js";
import type { InvitationRow } from "./rows.js";

/** Unexpired pending invitations of `organizationId`, optionally for one (lower-cased) email. */
export async function pendingInvitations(db: Adapter, organizationId: string, email?: string): Promise<InvitationRow[]> {
  const rows = await db.findMany<InvitationRow>({
    model: "invitation",
    where: [
      ...(email ? [{ field: "email", value: email.toLowerCase() }] : []),
      { field: "organizationId", value: organizationId },
      { field: "status", value: "pending" },
    ],
  });
  const now = Date.now();
  return rows.filter((row) => new Date(row.expiresAt).getTime() > now);
}

/**
 * Moves an invitation from one status to another in one conditional update: of any number of
 * concurrent callers exactly one sees the row (the rest `null`), so an invitation is accepted,
 * rejected or canceled once.
 */
export function moveInvitation(
  db: Adapter,
  id: string,
  to: InvitationRow["status"],
  from?: InvitationRow["status"],
): Promise<InvitationRow | null> {
  return db.incrementOne<InvitationRow>({
    model: "invitation",
    where: [{ field: "id", value: id }, ...(from ? [{ field: "status", value: from }] : [])],
    increment: {},
    set: { status: to },
  });
}

/**
 * Whether acting on an invitation by its id needs a verified email. Unset, it does only when
 * invitation ids are not the built-in random ones (a custom `generateId` may make them
 * guessable, so the id alone must not be enough), as in the reference.
 */
export function verifiedEmailRequired(ctx: EndpointContext, options: ResolvedOrganizationOptions): boolean {
  if (options.requireEmailVerificationOnInvitation !== undefined) return options.requireEmailVerificationOnInvitation;
  const advanced = ctx.context.options.advanced as { generateId?: unknown; database?: { generateId?: unknown } } | undefined;
  const custom = typeof advanced?.generateId === "function";
  const databaseIds = advanced?.database?.generateId;
  return custom || (databaseIds !== undefined && databaseIds !== "uuid");
}

/** `teamId` input (one id or a list) as a list. */
export const teamIdList = (teamId: string | string[] | undefined): string[] =>
  teamId === undefined ? [] : typeof teamId === "string" ? (teamId ? [teamId] : []) : teamId;
