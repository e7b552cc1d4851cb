import type { Adapter, User } from "@latchkey/core";
import type { ResolvedOrganizationOptions } from "./options.js";
import type { MemberRow, OrganizationRow, TeamRow } from "./rows.js";
import { releaseSeats } from "./team-seats.js";

/** The user fields the reference nests in member answers. */
export interface MemberUser {
  id: string;
  name: string;
  email: string;
  image: string | null | undefined;
}

/** A member row with its user. */
export type MemberWithUser = MemberRow & { user: MemberUser };

/** The `{ id, name, email, image }` the reference answers for a member's user. */
export const memberUser = (user: Pick<User, "id" | "name" | "email"> & { image?: string | null | undefined }): MemberUser => ({
  id: user.id,
  name: user.name,
  email: user.email,
  image: user.image,
});

/** The member row of `userId` in `organizationId` (indexed lookup), or null. */
export function findMember(db: Adapter, userId: string, organizationId: string): Promise<MemberRow | null> {
  return db.findOne<MemberRow>({
    model: "member",
    where: [
      { field: "organizationId", value: organizationId },
      { field: "userId", value: userId },
    ],
  });
}

/** A member row with its user; null when either is gone. */
export async function withUser(db: Adapter, member: MemberRow | null): Promise<MemberWithUser | null> {
  if (!member) return null;
  const user = await db.findOne<User>({ model: "user", where: [{ field: "id", value: member.userId }] });
  return user ? { ...member, user: memberUser(user) } : null;
}

/** The member of `organizationId` whose user has `email` (lower-cased), with the user. */
export async function findMemberByEmail(db: Adapter, email: string, organizationId: string): Promise<MemberWithUser | null> {
  const user = await db.findOne<User>({ model: "user", where: [{ field: "email", value: email.toLowerCase() }] });
  if (!user) return null;
  const member = await findMember(db, user.id, organizationId);
  return member ? { ...member, user: memberUser(user) } : null;
}

/** The organization with `id`, or null. */
export function findOrganization(db: Adapter, id: string): Promise<OrganizationRow | null> {
  return db.findOne<OrganizationRow>({ model: "organization", where: [{ field: "id", value: id }] });
}

/** The organization with `slug`, or null. */
export function findOrganizationBySlug(db: Adapter, slug: string): Promise<OrganizationRow | null> {
  return db.findOne<OrganizationRow>({ model: "organization", where: [{ field: "slug", value: slug }] });
}

/** How many members of `organizationId` hold the creator role. */
export async function countCreators(db: Adapter, options: ResolvedOrganizationOptions, organizationId: string): Promise<number> {
  const members = await db.findMany<MemberRow>({
    model: "member",
    where: [
      { field: "organizationId", value: organizationId },
      // Narrows the scan to rows naming the role; the exact test is on the split list.
      { field: "role", value: options.creatorRole, operator: "contains" },
    ],
  });
  return members.filter((m) => m.role.split(",").includes(options.creatorRole)).length;
}

/**
 * Deletes a member and, with teams, their team memberships in the organization's teams,
 * giving each team its seats back.
 */
export async function deleteMember(
  db: Adapter,
  options: ResolvedOrganizationOptions,
  member: Pick<MemberRow, "id" | "userId" | "organizationId">,
): Promise<void> {
  await db.delete({ model: "member", where: [{ field: "id", value: member.id }] });
  if (!options.teamsEnabled) return;
  const teams = await db.findMany<TeamRow>({
    model: "team",
    where: [{ field: "organizationId", value: member.organizationId }],
  });
  for (const team of teams) {
    const removed = await db.deleteMany({
      model: "teamMember",
      where: [
        { field: "teamId", value: team.id },
        { field: "userId", value: member.userId },
      ],
    });
    await releaseSeats(db, team.id, removed);
  }
}
