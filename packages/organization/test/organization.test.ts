import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAuth } from "@latchkey/test-support";
import { addMember, createOrg, orgInstance, rows, signUp } from "./instance.ts";

describe("organizations, members and invitations (SQLite)", () => {
  let t: TestAuth;
  const mails: { id: string; email: string; role: string; inviterEmail: string }[] = [];
  beforeAll(async () => {
    t = await orgInstance("sqlite", {
      sendInvitationEmail: (data) => {
        mails.push({ id: data.id, email: data.email, role: data.role, inviterEmail: data.inviter.user.email });
      },
    });
  });
  afterAll(() => t.close());

  it("creates an organization with its owner, makes it active, and answers metadata parsed", async () => {
    const { browser, userId } = await signUp(t, "founder");
    const answer = await browser.post<Record<string, unknown>>("/organization/create", {
      name: "Acme",
      slug: "acme",
      metadata: { plan: "pro" },
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ name: "Acme", slug: "acme", metadata: { plan: "pro" } });
    const members = answer.json!.members as { role: string; userId: string }[];
    expect(members).toHaveLength(1);
    expect(members[0]).toMatchObject({ role: "owner", userId });
    const session = await browser.get<{ session: { activeOrganizationId: string } }>("/get-session");
    expect(session.json!.session.activeOrganizationId).toBe(answer.json!.id);
    const stored = await rows<{ metadata: string }>(t, "organization", [{ field: "slug", value: "acme" }]);
    expect(stored[0]!.metadata).toBe('{"plan":"pro"}');

    const again = await browser.post("/organization/create", { name: "Acme 2", slug: "acme" });
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ code: "ORGANIZATION_ALREADY_EXISTS", message: "Organization already exists" });
    expect((await browser.post("/organization/check-slug", { slug: "acme" })).json).toMatchObject({ code: "ORGANIZATION_SLUG_ALREADY_TAKEN" });
    expect((await browser.post("/organization/check-slug", { slug: "free-slug" })).json).toEqual({ status: true });
  });

  it("updates, lists, reads in full, switches and deletes", async () => {
    const { browser } = await signUp(t, "ops");
    const id = await createOrg(browser, "ops-org");
    const updated = await browser.post("/organization/update", { data: { name: "Ops Renamed", metadata: { a: 1 } } });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ id, name: "Ops Renamed", metadata: { a: 1 } });
    // Row 68: an empty `data` is a 400 here (the reference answers 500) and writes nothing.
    const empty = await browser.post("/organization/update", { data: {} });
    expect(empty.status).toBe(400);
    expect(empty.json).toMatchObject({ code: "VALIDATION_ERROR" });

    const list = await browser.get<{ id: string }[]>("/organization/list");
    expect(list.json!.map((o) => o.id)).toEqual([id]);
    const full = await browser.get<Record<string, unknown>>(`/organization/get-full-organization?organizationId=${id}`);
    expect(full.status).toBe(200);
    expect(full.json).toMatchObject({ id, name: "Ops Renamed", invitations: [], members: [{ role: "owner", user: { email: "ops@example.com" } }] });
    expect(full.json!.metadata).toBe('{"a":1}');

    expect((await browser.post("/organization/set-active", { organizationId: null })).json).toBeNull();
    expect((await browser.get("/organization/get-full-organization")).json).toBeNull();
    const bySlug = await browser.post<{ id: string }>("/organization/set-active", { organizationSlug: "ops-org" });
    expect(bySlug.json!.id).toBe(id);
    const stranger = await signUp(t, "stranger");
    const refused = await stranger.browser.post("/organization/set-active", { organizationId: id });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION" });

    const deleted = await browser.post<{ id: string }>("/organization/delete", { organizationId: id });
    expect(deleted.status).toBe(200);
    expect(deleted.json!.id).toBe(id);
    expect(await rows(t, "member", [{ field: "organizationId", value: id }])).toEqual([]);
    expect((await browser.get<{ session: { activeOrganizationId: string | null } }>("/get-session")).json!.session.activeOrganizationId).toBeNull();
  });

  it("invites, and the invitee reads, lists and accepts the invitation", async () => {
    const owner = await signUp(t, "inviter");
    const id = await createOrg(owner.browser, "invite-org");
    const invitee = await signUp(t, "invitee");
    const invited = await owner.browser.post<{ id: string; status: string; email: string; role: string }>("/organization/invite-member", {
      email: "INVITEE@example.com",
      role: "admin",
    });
    expect(invited.status).toBe(200);
    expect(invited.json).toMatchObject({ status: "pending", email: "invitee@example.com", role: "admin", organizationId: id });
    expect(mails.at(-1)).toEqual({ id: invited.json!.id, email: "invitee@example.com", role: "admin", inviterEmail: "inviter@example.com" });
    const twice = await owner.browser.post("/organization/invite-member", { email: "invitee@example.com", role: "admin" });
    expect(twice.json).toMatchObject({ code: "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION" });
    const unknownRole = await owner.browser.post("/organization/invite-member", { email: "x@example.com", role: "wizard" });
    expect(unknownRole.status).toBe(400);
    expect(unknownRole.json).toEqual({ message: "ROLE_NOT_FOUND: wizard" });

    const got = await invitee.browser.get<Record<string, unknown>>(`/organization/get-invitation?id=${invited.json!.id}`);
    expect(got.json).toMatchObject({ organizationName: "Org invite-org", organizationSlug: "invite-org", inviterEmail: "inviter@example.com" });
    // Unverified emails may not list their invitations.
    expect((await invitee.browser.get("/organization/list-user-invitations")).status).toBe(403);
    await t.auth.$context.adapter.update({ model: "user", where: [{ field: "id", value: invitee.userId }], update: { emailVerified: true } });
    const mine = await invitee.browser.get<{ id: string; organizationName: string }[]>("/organization/list-user-invitations");
    expect(mine.json).toMatchObject([{ id: invited.json!.id, organizationName: "Org invite-org" }]);
    expect((await owner.browser.get<unknown[]>("/organization/list-invitations")).json).toHaveLength(1);

    const stranger = await signUp(t, "not-invitee");
    expect((await stranger.browser.post("/organization/accept-invitation", { invitationId: invited.json!.id })).json).toMatchObject({
      code: "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION",
    });
    const accepted = await invitee.browser.post<{ invitation: { status: string }; member: { role: string } }>(
      "/organization/accept-invitation",
      { invitationId: invited.json!.id },
    );
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({ invitation: { status: "accepted" }, member: { role: "admin", organizationId: id } });
    const active = await invitee.browser.get<{ role: string; user: { email: string } }>("/organization/get-active-member");
    expect(active.json).toMatchObject({ role: "admin", user: { email: "invitee@example.com" } });
    expect((await invitee.browser.post("/organization/accept-invitation", { invitationId: invited.json!.id })).json).toMatchObject({
      code: "INVITATION_NOT_FOUND",
    });
  });

  it("rejects and cancels invitations", async () => {
    const owner = await signUp(t, "canceller");
    await createOrg(owner.browser, "cancel-org");
    const invitee = await signUp(t, "rejecter");
    const a = await owner.browser.post<{ id: string }>("/organization/invite-member", { email: invitee.email, role: "member" });
    const rejected = await invitee.browser.post("/organization/reject-invitation", { invitationId: a.json!.id });
    expect(rejected.json).toMatchObject({ invitation: { status: "rejected" }, member: null });
    const again = await invitee.browser.post("/organization/reject-invitation", { invitationId: a.json!.id });
    expect(again.json).toEqual({ code: "INVITATION_NOT_FOUND", message: "Invitation not found!" });
    const b = await owner.browser.post<{ id: string }>("/organization/invite-member", { email: "someone@example.com", role: "member" });
    const canceled = await owner.browser.post("/organization/cancel-invitation", { invitationId: b.json!.id });
    expect(canceled.json).toMatchObject({ id: b.json!.id, status: "canceled" });
  });

  it("checks permissions, lists members, changes roles and guards the last owner", async () => {
    const owner = await signUp(t, "boss");
    const id = await createOrg(owner.browser, "perm-org");
    const worker = await signUp(t, "worker");
    const member = await addMember(t, id, worker.userId, "member");
    await worker.browser.post("/organization/set-active", { organizationId: id });

    const can = (b: typeof owner.browser, permissions: Record<string, string[]>) =>
      b.post<{ success: boolean }>("/organization/has-permission", { permissions });
    expect((await can(owner.browser, { member: ["delete"] })).json).toEqual({ error: null, success: true });
    expect((await can(worker.browser, { member: ["delete"] })).json).toEqual({ error: null, success: false });
    expect((await can(worker.browser, { ac: ["read"] })).json).toEqual({ error: null, success: true });

    const page = await owner.browser.get<{ members: { role: string }[]; total: number }>("/organization/list-members?limit=1&sortBy=createdAt");
    expect(page.json!.total).toBe(2);
    expect(page.json!.members).toHaveLength(1);
    const filtered = await owner.browser.get<{ total: number }>("/organization/list-members?filterField=role&filterValue=member");
    expect(filtered.json!.total).toBe(1);
    const badField = await owner.browser.get("/organization/list-members?sortBy=nope");
    expect(badField.status).toBe(400);

    // Row 69: a member without `member:delete` is refused with 403 (the reference: 401).
    const removeByWorker = await worker.browser.post("/organization/remove-member", { memberIdOrEmail: owner.email });
    expect(removeByWorker.status).toBe(400);
    const ownerMember = (await rows<{ id: string; userId: string }>(t, "member", [{ field: "organizationId", value: id }])).find(
      (m) => m.userId === owner.userId,
    )!;
    expect((await worker.browser.post("/organization/update-member-role", { memberId: ownerMember.id, role: "member" })).status).toBe(403);

    expect((await owner.browser.post("/organization/leave", { organizationId: id })).json).toMatchObject({
      code: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER",
    });
    expect((await owner.browser.post("/organization/update-member-role", { memberId: ownerMember.id, role: "admin" })).json).toMatchObject({
      code: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER",
    });
    const promoted = await owner.browser.post<{ role: string }>("/organization/update-member-role", { memberId: member.id, role: ["admin", "member"] });
    expect(promoted.json!.role).toBe("admin,member");
    expect((await worker.browser.get<{ role: string }>("/organization/get-active-member-role")).json).toEqual({ role: "admin,member" });

    const third = await signUp(t, "third");
    await addMember(t, id, third.userId, "member");
    await third.browser.post("/organization/set-active", { organizationId: id });
    const denied = await third.browser.post("/organization/remove-member", { memberIdOrEmail: worker.email });
    expect(denied.status).toBe(403);
    expect(denied.json).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER", message: "You are not allowed to delete this member" });
    const removed = await owner.browser.post<{ member: { userId: string } }>("/organization/remove-member", { memberIdOrEmail: worker.email });
    expect(removed.json!.member.userId).toBe(worker.userId);
    expect((await third.browser.post("/organization/leave", { organizationId: id })).status).toBe(200);
  });
});
