import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_KINDS, type TestAuth } from "@latchkey/test-support";
import { membershipKey } from "../src/index.ts";
import { fastUser, fastUsers, type FastUser } from "./fast-users.ts";
import { addMember, createOrg, orgInstance, rows } from "./instance.ts";

/** A gate a test can close to hold a request inside `beforeCreateInvitation`. */
let gate: { entered: () => void; release: Promise<void> } | null = null;

const teamCount = async (t: TestAuth, teamId: string): Promise<number> =>
  t.auth.$context.adapter.count({ model: "teamMember", where: [{ field: "teamId", value: teamId }] });
const memberCountOf = async (t: TestAuth, teamId: string): Promise<number> =>
  ((await t.auth.$context.adapter.findOne<{ memberCount: number }>({ model: "team", where: [{ field: "id", value: teamId }] }))!).memberCount;

describe.each(DATABASE_KINDS)("exact under concurrency on %s", (kind) => {
  let t: TestAuth;
  let owner: FastUser;
  beforeAll(async () => {
    t = await orgInstance(kind, {
      teams: { enabled: true, maximumMembersPerTeam: 5, allowRemovingAllTeams: true },
      organizationHooks: {
        beforeCreateInvitation: async () => {
          const held = gate;
          if (!held) return;
          held.entered();
          await held.release;
        },
      },
    });
    owner = await fastUser(t, `owner-${kind}`);
  });
  afterAll(() => t.close());

  it("50 parallel joins (add-team-member and invitation accepts mixed) to a 5-seat team: exactly 5", async () => {
    const orgId = await createOrg(owner.browser, `seats-${kind}`);
    const team = await owner.browser.post<{ id: string }>("/organization/create-team", { name: "capped" });
    expect(team.status).toBe(200);
    const teamId = team.json!.id;
    const users = await fastUsers(t, `seat-${kind}`, 50);
    const direct = users.slice(0, 25);
    const invited = users.slice(25);
    for (const u of direct) await addMember(t, orgId, u.userId);
    const invitations: string[] = [];
    for (const u of invited) {
      const answer = await owner.browser.post<{ id: string }>("/organization/invite-member", { email: u.email, role: "member", teamId });
      expect(answer.status, answer.text).toBe(200);
      invitations.push(answer.json!.id);
    }
    const answers = await Promise.all([
      ...direct.map((u) => owner.browser.post("/organization/add-team-member", { teamId, userId: u.userId })),
      ...invited.map((u, i) => u.browser.post("/organization/accept-invitation", { invitationId: invitations[i] })),
    ]);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(5);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status, refused.text).toBe(403);
      expect(refused.json).toMatchObject({ code: "TEAM_MEMBER_LIMIT_REACHED" });
    }
    expect(await teamCount(t, teamId)).toBe(5);
    expect(await memberCountOf(t, teamId)).toBe(5);
    // A refused accept is rolled back whole: no member row, the invitation still pending.
    const acceptedOk = answers.slice(25).filter((a) => a.status === 200).length;
    expect(await t.auth.$context.adapter.count({ model: "member", where: [{ field: "organizationId", value: orgId }] })).toBe(1 + 25 + acceptedOk);
    const statuses = (await rows<{ status: string }>(t, "invitation", [{ field: "organizationId", value: orgId }])).map((r) => r.status);
    expect(statuses.filter((s) => s === "accepted")).toHaveLength(acceptedOk);
    expect(statuses.filter((s) => s === "pending")).toHaveLength(25 - acceptedOk);
  });

  it("a team whose memberCount is 0 with existing members resyncs on its next join", async () => {
    const orgId = await createOrg(owner.browser, `resync-${kind}`);
    const team = await owner.browser.post<{ id: string }>("/organization/create-team", { name: "legacy" });
    const teamId = team.json!.id;
    const [a, b, c, d] = await fastUsers(t, `legacy-${kind}`, 4);
    for (const u of [a!, b!, c!, d!]) await addMember(t, orgId, u.userId);
    // Rows written before the seat counter existed: memberCount stays 0, one row has no key.
    const { adapter } = t.auth.$context;
    await adapter.create({ model: "teamMember", data: { id: `legacy-a-${kind}`, teamId, userId: a!.userId, createdAt: new Date() } });
    const key = await membershipKey(teamId, b!.userId);
    await adapter.create({ model: "teamMember", data: { id: `legacy-b-${kind}`, teamId, userId: b!.userId, membershipKey: key, createdAt: new Date() } });
    await adapter.create({ model: "teamMember", data: { id: `legacy-c-${kind}`, teamId, userId: c!.userId, membershipKey: null, createdAt: new Date() } });
    await adapter.create({ model: "teamMember", data: { id: `legacy-d-${kind}`, teamId, userId: d!.userId, membershipKey: null, createdAt: new Date() } });
    expect(await memberCountOf(t, teamId)).toBe(0);
    // Re-adding a legacy member answers the existing row and takes no seat.
    const again = await owner.browser.post<{ id: string }>("/organization/add-team-member", { teamId, userId: a!.userId });
    expect(again.json!.id).toBe(`legacy-a-${kind}`);
    const [e, f] = await fastUsers(t, `late-${kind}`, 2);
    for (const u of [e!, f!]) await addMember(t, orgId, u.userId);
    expect((await owner.browser.post("/organization/add-team-member", { teamId, userId: e!.userId })).status).toBe(200);
    expect(await memberCountOf(t, teamId)).toBe(5);
    const full = await owner.browser.post("/organization/add-team-member", { teamId, userId: f!.userId });
    expect(full.status).toBe(403);
    expect(await teamCount(t, teamId)).toBe(5);
  });

  it("one invitation accepted by 10 parallel requests: one membership", async () => {
    const orgId = await createOrg(owner.browser, `once-${kind}`);
    const invitee = await fastUser(t, `once-${kind}`);
    const invitation = await owner.browser.post<{ id: string }>("/organization/invite-member", { email: invitee.email, role: "member" });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => invitee.browser.post("/organization/accept-invitation", { invitationId: invitation.json!.id })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.json).toMatchObject({ code: "INVITATION_NOT_FOUND" });
    const memberships = await rows(t, "member", [{ field: "organizationId", value: orgId }, { field: "userId", value: invitee.userId }]);
    expect(memberships).toHaveLength(1);
  });

  it("two owners demoting each other in parallel never leave the organization without an owner", async () => {
    for (let round = 0; round < 4; round++) {
      const a = await fastUser(t, `owner-a-${kind}-${round}`);
      const orgId = await createOrg(a.browser, `duel-${kind}-${round}`);
      const b = await fastUser(t, `owner-b-${kind}-${round}`);
      const bMember = await addMember(t, orgId, b.userId, "owner");
      await b.browser.post("/organization/set-active", { organizationId: orgId });
      const aMember = (await rows<{ id: string; userId: string }>(t, "member", [{ field: "organizationId", value: orgId }])).find(
        (m) => m.userId === a.userId,
      )!;
      const answers = await Promise.all([
        a.browser.post("/organization/update-member-role", { memberId: bMember.id, role: "admin" }),
        b.browser.post("/organization/update-member-role", { memberId: aMember.id, role: "admin" }),
      ]);
      expect(answers.filter((x) => x.status === 200)).toHaveLength(1);
      const owners = (await rows<{ role: string }>(t, "member", [{ field: "organizationId", value: orgId }])).filter((m) =>
        m.role.split(",").includes("owner"),
      );
      expect(owners).toHaveLength(1);
      // And the same race through removal: each owner removing the other.
      const c = await fastUser(t, `owner-c-${kind}-${round}`);
      await addMember(t, orgId, c.userId, "owner");
      await c.browser.post("/organization/set-active", { organizationId: orgId });
      const remaining = owners[0] as { role: string; userId?: string };
      const survivor = remaining.userId === a.userId ? a : b;
      const removals = await Promise.all([
        survivor.browser.post("/organization/remove-member", { memberIdOrEmail: c.email }),
        c.browser.post("/organization/remove-member", { memberIdOrEmail: survivor.email }),
      ]);
      expect(removals.filter((x) => x.status === 200)).toHaveLength(1);
      const left = (await rows<{ role: string }>(t, "member", [{ field: "organizationId", value: orgId }])).filter((m) =>
        m.role.split(",").includes("owner"),
      );
      expect(left).toHaveLength(1);
    }
  });

  it("a member removed while their request is in flight cannot act afterwards", async () => {
    const orgId = await createOrg(owner.browser, `inflight-${kind}`);
    const admin = await fastUser(t, `inflight-admin-${kind}`);
    await addMember(t, orgId, admin.userId, "admin");
    await admin.browser.post("/organization/set-active", { organizationId: orgId });
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    gate = { entered, release: new Promise<void>((resolve) => (release = resolve)) };
    // The admin's invitation passes its checks and waits in the before hook…
    const pending = admin.browser.post("/organization/invite-member", { email: `late-${kind}@example.com`, role: "member" });
    await inside;
    gate = null;
    // …while the owner removes the admin.
    const removed = await owner.browser.post("/organization/remove-member", { memberIdOrEmail: admin.email, organizationId: orgId });
    expect(removed.status).toBe(200);
    release();
    const answer = await pending;
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: "MEMBER_NOT_FOUND" });
    expect(await rows(t, "invitation", [{ field: "organizationId", value: orgId }])).toEqual([]);
    // And any later request of theirs is refused too.
    const later = await admin.browser.post("/organization/invite-member", { email: `later-${kind}@example.com`, role: "member", organizationId: orgId });
    expect(later.status).toBe(400);
  });
});
