import { base64UrlEncode, utf8Encode, type Adapter } from "@latchkey/core";
import type { TeamMemberRow } from "./rows.js";

/**
 * The `teamMember.membershipKey` of a user in a team, as the reference computes it:
 * base64url (no padding) of SHA-256 over the JSON text `["<teamId>","<userId>"]`. Its unique
 * index makes a second row for the same pair impossible, whoever writes it.
 */
export async function membershipKey(teamId: string, userId: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", utf8Encode(JSON.stringify([teamId, userId])));
  return base64UrlEncode(new Uint8Array(digest));
}

/** Drops the internal `membershipKey` from a row before it is answered. */
export function publicTeamMember(row: TeamMemberRow): TeamMemberRow {
  const { membershipKey: _key, ...rest } = row;
  return rest as TeamMemberRow;
}

/** The user's membership of the team, found by key or (rows written without one) by the pair. */
export async function findTeamMember(db: Adapter, teamId: string, userId: string): Promise<TeamMemberRow | null> {
  const key = await membershipKey(teamId, userId);
  const byKey = await db.findOne<TeamMemberRow>({ model: "teamMember", where: [{ field: "membershipKey", value: key }] });
  return (
    byKey ??
    db.findOne<TeamMemberRow>({
      model: "teamMember",
      where: [
        { field: "teamId", value: teamId },
        { field: "userId", value: userId },
      ],
    })
  );
}

/**
 * Spec: a team whose `memberCount` lags its real rows (teams written before the column, which
 * start at 0) is raised to the real count on its next join. The guard only ever raises it, so
 * a resync racing a join cannot lose that join's seat.
 */
async function resyncCount(db: Adapter, teamId: string): Promise<void> {
  const real = await db.count({ model: "teamMember", where: [{ field: "teamId", value: teamId }] });
  await db.incrementOne({
    model: "team",
    where: [
      { field: "id", value: teamId },
      { field: "memberCount", operator: "lt", value: real },
    ],
    increment: {},
    set: { memberCount: real },
  });
}

/** Gives `count` seats back (never below zero). */
export async function releaseSeats(db: Adapter, teamId: string, count: number): Promise<void> {
  if (count <= 0) return;
  await db.incrementOne({
    model: "team",
    where: [
      { field: "id", value: teamId },
      { field: "memberCount", operator: "gte", value: count },
    ],
    increment: { memberCount: -count },
  });
}

/** What a join did: the membership (new or existing), or no seat left. */
export type JoinResult = { status: "added"; member: TeamMemberRow } | { status: "limitReached" };

/**
 * Adds the user to the team, or answers their existing membership. With a `maximum`, a seat is
 * taken first by one guarded update (`memberCount < maximum` → `+1`): of any number of
 * concurrent joins exactly `maximum - memberCount` get one (spec: team capacity is checked
 * atomically). The row is then written under its unique `membershipKey`; if another writer
 * got there first, the seat is given back and their row answered.
 */
export async function joinTeam(
  db: Adapter,
  input: { teamId: string; userId: string; maximum?: number | undefined },
  create: (data: Record<string, unknown>) => Promise<TeamMemberRow>,
): Promise<JoinResult> {
  const { teamId, userId, maximum } = input;
  const existing = await findTeamMember(db, teamId, userId);
  if (existing) return { status: "added", member: publicTeamMember(existing) };
  await resyncCount(db, teamId);
  const seat = await db.incrementOne({
    model: "team",
    where: [
      { field: "id", value: teamId },
      ...(maximum === undefined ? [] : [{ field: "memberCount", operator: "lt" as const, value: maximum }]),
    ],
    increment: { memberCount: 1 },
  });
  if (!seat) return { status: "limitReached" };
  const key = await membershipKey(teamId, userId);
  try {
    const row = await create({ teamId, userId, membershipKey: key, createdAt: new Date() });
    return { status: "added", member: publicTeamMember(row) };
  } catch (error) {
    await releaseSeats(db, teamId, 1);
    const raced = await findTeamMember(db, teamId, userId);
    if (raced) return { status: "added", member: publicTeamMember(raced) };
    throw error;
  }
}

/** Removes the user from the team and gives the seat back; the number of rows removed. */
export async function leaveTeam(db: Adapter, teamId: string, userId: string): Promise<number> {
  const removed = await db.deleteMany({
    model: "teamMember",
    where: [
      { field: "teamId", value: teamId },
      { field: "userId", value: userId },
    ],
  });
  await releaseSeats(db, teamId, removed);
  return removed;
}
