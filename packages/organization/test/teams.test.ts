import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAuth } from "@latchkey/test-support";
import { fastUser } from "./fast-users.ts";
import { addMember, createOrg, orgInstance, rows } from "./instance.ts";

describe("teams (SQLite)", () => {
  let t: TestAuth;
  const calls: string[] = [];
  beforeAll(async () => {
    t = await orgInstance("sqlite", {
      teams: { enabled: true, maximumTeams: 3 },
      organizationHooks: {
        beforeCreateTeam: ({ team }) => {
          calls.push(`beforeCreateTeam:${String(team.name)}`);
          return team.name === "renamed-by-hook" ? { data: { name: "Hooked" } } : undefined;
        },
        afterAddTeamMember: ({ teamMember }) => void calls.push(`afterAddTeamMember:${teamMember.userId}`),
        afterRemoveMember: ({ member }) => void calls.push(`afterRemoveMember:${member.userId}`),
      },
    });
  });
  afterAll(() => t.close());

  it("creates the default team with the creator, lists, updates, switches and removes teams", async () => {
    const owner = await fastUser(t, "team-owner");
    const orgId = await createOrg(owner.browser, "team-org");
    const session = await owner.browser.get<{ session: { activeTeamId: string } }>("/get-session");
    const defaultTeamId = session.json!.session.activeTeamId;
    expect(defaultTeamId).toBeTruthy();
    expect(calls).toContain("beforeCreateTeam:Org team-org");

    const hooked = await owner.browser.post<{ name: string; id: string }>("/organization/create-team", { name: "renamed-by-hook" });
    expect(hooked.json).toMatchObject({ name: "Hooked", organizationId: orgId });
    expect(hooked.json).not.toHaveProperty("memberCount");
    const red = await owner.browser.post<{ id: string }>("/organization/create-team", { name: "Red" });
    const fourth = await owner.browser.post("/organization/create-team", { name: "Too many" });
    expect(fourth.status).toBe(400);
    expect(fourth.json).toMatchObject({ code: "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS" });

    const listed = await owner.browser.get<{ name: string }[]>("/organization/list-teams");
    expect(listed.json!.map((x) => x.name).sort()).toEqual(["Hooked", "Org team-org", "Red"]);
    const renamed = await owner.browser.post<{ name: string }>("/organization/update-team", { teamId: red.json!.id, data: { name: "Crimson" } });
    expect(renamed.json).toMatchObject({ name: "Crimson" });

    expect((await owner.browser.post("/organization/set-active-team", { teamId: red.json!.id })).json).toMatchObject({
      code: "USER_IS_NOT_A_MEMBER_OF_THE_TEAM",
    });
    // The active team cannot be removed; another one can, and pending invitations forget it.
    expect((await owner.browser.post("/organization/remove-team", { teamId: defaultTeamId })).json).toMatchObject({
      code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM",
    });
    const invite = await owner.browser.post<{ id: string; teamId: string }>("/organization/invite-member", {
      email: "team-invitee@example.com",
      role: "member",
      teamId: [red.json!.id, hooked.json!.id],
    });
    expect(invite.json!.teamId).toBe(`${red.json!.id},${hooked.json!.id}`);
    expect((await owner.browser.post("/organization/invite-member", { email: "bad@example.com", role: "member", teamId: "a,b" })).json).toMatchObject({
      code: "INVALID_TEAM_ID",
    });
    expect((await owner.browser.post("/organization/remove-team", { teamId: red.json!.id })).json).toEqual({ message: "Team removed successfully." });
    const [stored] = await rows<{ teamId: string }>(t, "invitation", [{ field: "id", value: invite.json!.id }]);
    expect(stored!.teamId).toBe(hooked.json!.id);
  });

  it("adds and removes team members, gives seats back when a member leaves, and guards who may list", async () => {
    const owner = await fastUser(t, "seat-owner");
    const orgId = await createOrg(owner.browser, "seat-org");
    const team = await owner.browser.post<{ id: string }>("/organization/create-team", { name: "Green" });
    const teamId = team.json!.id;
    const worker = await fastUser(t, "seat-worker");
    const outsider = await fastUser(t, "seat-outsider");
    await addMember(t, orgId, worker.userId);

    expect((await owner.browser.post("/organization/add-team-member", { teamId, userId: outsider.userId })).json).toMatchObject({
      code: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
    });
    const added = await owner.browser.post<{ teamId: string; userId: string }>("/organization/add-team-member", { teamId, userId: worker.userId });
    expect(added.json).toMatchObject({ teamId, userId: worker.userId });
    expect(added.json).not.toHaveProperty("membershipKey");
    expect(calls).toContain(`afterAddTeamMember:${worker.userId}`);
    const count = async () => ((await t.auth.$context.adapter.findOne<{ memberCount: number }>({ model: "team", where: [{ field: "id", value: teamId }] }))!).memberCount;
    expect(await count()).toBe(1);

    await worker.browser.post("/organization/set-active", { organizationId: orgId });
    expect((await worker.browser.post("/organization/add-team-member", { teamId, userId: worker.userId })).json).toMatchObject({
      code: "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER",
    });
    const mine = await worker.browser.get<{ id: string }[]>("/organization/list-user-teams");
    expect(mine.json!.map((x) => x.id)).toEqual([teamId]);
    expect((await worker.browser.get(`/organization/list-user-teams?userId=${owner.userId}`)).json).toMatchObject({
      code: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER",
    });
    const theirs = await owner.browser.get<{ id: string }[]>(`/organization/list-user-teams?userId=${worker.userId}`);
    expect(theirs.json!.map((x) => x.id)).toEqual([teamId]);
    expect((await worker.browser.post<{ id: string }>("/organization/set-active-team", { teamId })).json!.id).toBe(teamId);
    expect((await worker.browser.get<unknown[]>("/organization/list-team-members")).json).toHaveLength(1);
    expect((await owner.browser.get(`/organization/list-team-members?teamId=${teamId}`)).json).toMatchObject({
      code: "USER_IS_NOT_A_MEMBER_OF_THE_TEAM",
    });

    expect((await owner.browser.post("/organization/remove-team-member", { teamId, userId: worker.userId })).json).toEqual({
      message: "Team member removed successfully.",
    });
    expect(await count()).toBe(0);
    expect((await owner.browser.post("/organization/remove-team-member", { teamId, userId: worker.userId })).json).toMatchObject({
      code: "USER_IS_NOT_A_MEMBER_OF_THE_TEAM",
    });
    await owner.browser.post("/organization/add-team-member", { teamId, userId: worker.userId });
    expect(await count()).toBe(1);
    // Removing the member from the organization removes the team membership and its seat.
    expect((await owner.browser.post("/organization/remove-member", { memberIdOrEmail: worker.email })).status).toBe(200);
    expect(calls).toContain(`afterRemoveMember:${worker.userId}`);
    expect(await count()).toBe(0);
    expect(await rows(t, "teamMember", [{ field: "teamId", value: teamId }])).toEqual([]);
  });

  it("server calls: addMember with a team, create-team and remove-team without headers", async () => {
    const owner = await fastUser(t, "server-owner");
    const orgId = await createOrg(owner.browser, "server-org");
    const api = t.auth.api as unknown as Record<string, (args: unknown) => Promise<Record<string, unknown>>>;
    const team = await api.createTeam!({ body: { name: "Server", organizationId: orgId } });
    const user = await fastUser(t, "server-user");
    const member = await api.addMember!({ body: { userId: user.userId, role: ["member", "admin"], organizationId: orgId, teamId: team.id } });
    expect(member).toMatchObject({ role: "member,admin", userId: user.userId });
    expect(await rows(t, "teamMember", [{ field: "teamId", value: team.id as string }])).toHaveLength(1);
    await expect(api.addMember!({ body: { userId: user.userId, role: "member", organizationId: orgId } })).rejects.toMatchObject({ status: 400 });
    expect(await api.removeTeam!({ body: { teamId: team.id, organizationId: orgId } })).toEqual({ message: "Team removed successfully." });
    await expect(api.removeTeam!({ body: { teamId: "nope", organizationId: orgId } })).rejects.toMatchObject({ status: 400 });
  });
});
