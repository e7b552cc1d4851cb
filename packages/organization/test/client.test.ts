import { createAuthClient, type ClientPlugin } from "@latchkey/client";
import { client, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizationClient } from "../src/client.ts";
import { orgInstance, PASSWORD } from "./instance.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await orgInstance("sqlite", { teams: { enabled: true } });
});
afterAll(() => t.close());

/** A `@latchkey/client` in front of the instance, through the test kit's cookie-keeping client. */
function browserClient() {
  const browser = client(t.auth);
  return createAuthClient({
    baseURL: "http://localhost:3000",
    fetch: async (url, init) => (await browser.request(String(url), init)).response,
    plugins: [organizationClient()],
  });
}

describe("organizationClient", () => {
  it("is a client plugin for @latchkey/client", () => {
    expect(organizationClient()).toSatisfy((p: ClientPlugin) => p.id === "organization");
  });

  it("creates, invites, accepts, lists members, checks permissions and manages a team through client.organization", async () => {
    const owner = browserClient();
    await owner.signUp.email({ email: "client-owner@example.com", password: PASSWORD, name: "Owner" });
    const created = await owner.organization.create({ name: "Client Org", slug: "client-org" });
    expect(created.error).toBeNull();
    const orgId = created.data!.id;
    expect((await owner.organization.checkSlug({ slug: "client-org" })).error).toMatchObject({ status: 400, code: "ORGANIZATION_SLUG_ALREADY_TAKEN" });

    const invitee = browserClient();
    await invitee.signUp.email({ email: "client-invitee@example.com", password: PASSWORD, name: "Invitee" });
    const invitation = await owner.organization.inviteMember({ email: "client-invitee@example.com", role: "member" });
    expect(invitation.data).toMatchObject({ status: "pending" });
    const fetched = await invitee.organization.getInvitation({ query: { id: invitation.data!.id } });
    expect(fetched.data).toMatchObject({ organizationSlug: "client-org" });
    const accepted = await invitee.organization.acceptInvitation({ invitationId: invitation.data!.id });
    expect(accepted.data?.member).toMatchObject({ organizationId: orgId, role: "member" });

    const listed = await owner.organization.listMembers({ query: { limit: 10 } });
    expect(listed.data?.total).toBe(2);
    expect((await owner.organization.list()).data?.map((o) => o.id)).toEqual([orgId]);
    expect((await invitee.organization.hasPermission({ permissions: { member: ["delete"] } })).data).toEqual({ error: null, success: false });
    expect((await owner.organization.hasPermission({ permissions: { member: ["delete"] } })).data).toEqual({ error: null, success: true });
    expect(owner.organization.checkRolePermission({ role: "admin", permissions: { member: ["delete"] } })).toBe(true);
    expect(owner.organization.checkRolePermission({ role: "member", permissions: { member: ["delete"] } })).toBe(false);

    const team = await owner.organization.createTeam({ name: "Blue" });
    const inviteeId = accepted.data!.member.userId as string;
    expect((await owner.organization.addTeamMember({ teamId: team.data!.id, userId: inviteeId })).data).toMatchObject({ teamId: team.data!.id });
    const mine = await invitee.organization.listUserTeams();
    expect(mine.data?.map((x) => x.name)).toEqual(["Blue"]);
    expect((await invitee.organization.setActiveTeam({ teamId: team.data!.id })).data).toMatchObject({ name: "Blue" });
    expect((await invitee.organization.listTeamMembers()).data).toHaveLength(1);
    expect((await owner.organization.getActiveMemberRole()).data).toEqual({ role: "owner" });
    expect((await invitee.organization.leave({ organizationId: orgId })).data).toMatchObject({ userId: inviteeId });
  });
});
