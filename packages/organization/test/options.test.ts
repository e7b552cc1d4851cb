import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APIError } from "@latchkey/core";
import type { TestAuth } from "@latchkey/test-support";
import { organization } from "../src/index.ts";
import { defaultRoles, ownerAc } from "../src/access.ts";
import { fastUser } from "./fast-users.ts";
import { addMember, createOrg, orgInstance, rows, signUp } from "./instance.ts";

describe("options (SQLite)", () => {
  let t: TestAuth;
  const sent: { id: string; expiresAt: number }[] = [];
  beforeAll(async () => {
    t = await orgInstance("sqlite", {
      allowUserToCreateOrganization: (user) => !user.email.startsWith("nocreate"),
      organizationLimit: 2,
      membershipLimit: 3,
      invitationLimit: 2,
      invitationExpiresIn: 3600,
      creatorRole: "founder",
      // The creator role must be a role that grants something.
      roles: { ...defaultRoles, founder: ownerAc },
      cancelPendingInvitationsOnReInvite: true,
      requireEmailVerificationOnInvitation: true,
      disableOrganizationDeletion: true,
      sendInvitationEmail: ({ invitation }) => void sent.push({ id: invitation.id, expiresAt: new Date(invitation.expiresAt).getTime() }),
    });
  });
  afterAll(() => t.close());

  it("misconfiguration is a TypeError when the plugin is made", () => {
    expect(() => organization({ membershipLimit: -1 })).toThrow(TypeError);
    expect(() => organization({ invitationLimit: "10" as unknown as number })).toThrow(TypeError);
    expect(() => organization({ dynamicAccessControl: { enabled: true } })).toThrow(TypeError);
  });

  it("allowUserToCreateOrganization, organizationLimit, creatorRole and disableOrganizationDeletion", async () => {
    const refused = await fastUser(t, "nocreate-user");
    const answer = await refused.browser.post("/organization/create", { name: "No", slug: "no" });
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ code: "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION" });
    // A server call for a user skips allowUserToCreateOrganization.
    const api = t.auth.api as unknown as Record<string, (args: unknown) => Promise<{ id: string; members: { role: string }[] }>>;
    const made = await api.createOrganization!({ body: { name: "Server made", slug: "server-made", userId: refused.userId } });
    expect(made.members[0]!.role).toBe("founder");

    const founder = await fastUser(t, "limit-user");
    await createOrg(founder.browser, "limit-1");
    const id = await createOrg(founder.browser, "limit-2");
    expect((await founder.browser.post("/organization/create", { name: "Three", slug: "limit-3" })).json).toMatchObject({
      code: "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS",
    });
    const deleted = await founder.browser.post("/organization/delete", { organizationId: id });
    expect(deleted.status).toBe(404);
    expect(deleted.json).toEqual({ code: "ORGANIZATION_DELETION_DISABLED", message: "Organization deletion is disabled" });
  });

  it("invitation expiry, limit, re-invite cancelling, resend, verified email and the membership limit", async () => {
    const owner = await fastUser(t, "inv-owner");
    const orgId = await createOrg(owner.browser, "inv-org");
    const first = await owner.browser.post<{ id: string; expiresAt: string }>("/organization/invite-member", { email: "a@example.com", role: "member" });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    const expires = new Date(first.json!.expiresAt).getTime() - Date.now();
    expect(expires).toBeGreaterThan(3500_000);
    expect(expires).toBeLessThanOrEqual(3600_000);
    // Re-inviting cancels the pending invitation (cancelPendingInvitationsOnReInvite).
    const second = await owner.browser.post<{ id: string }>("/organization/invite-member", { email: "a@example.com", role: "member" });
    expect(second.json!.id).not.toBe(first.json!.id);
    const [old] = await rows<{ status: string }>(t, "invitation", [{ field: "id", value: first.json!.id }]);
    expect(old!.status).toBe("canceled");
    // resend extends the pending one and sends it again.
    const resent = await owner.browser.post<{ id: string }>("/organization/invite-member", { email: "a@example.com", role: "member", resend: true });
    expect(resent.json!.id).toBe(second.json!.id);
    expect(sent.filter((m) => m.id === second.json!.id)).toHaveLength(2);
    await owner.browser.post("/organization/invite-member", { email: "b@example.com", role: "member" });
    const third = await owner.browser.post("/organization/invite-member", { email: "c@example.com", role: "member" });
    expect(third.status).toBe(403);
    expect(third.json).toMatchObject({ code: "INVITATION_LIMIT_REACHED" });

    // requireEmailVerificationOnInvitation: an unverified recipient may not accept.
    const unverified = await signUp(t, "a");
    const refused = await unverified.browser.post("/organization/accept-invitation", { invitationId: second.json!.id });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: "EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION" });
    expect((await unverified.browser.get(`/organization/get-invitation?id=${second.json!.id}`)).json).toMatchObject({
      code: "EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION",
    });
    await t.auth.$context.adapter.update({ model: "user", where: [{ field: "id", value: unverified.userId }], update: { emailVerified: true } });
    expect((await unverified.browser.post("/organization/accept-invitation", { invitationId: second.json!.id })).status).toBe(200);

    // membershipLimit 3: the owner, the invitee and one more.
    const extra = await fastUser(t, "extra-member");
    await addMember(t, orgId, extra.userId);
    const b = await fastUser(t, "b");
    const bInvite = (await rows<{ id: string; email: string }>(t, "invitation", [{ field: "organizationId", value: orgId }])).find(
      (i) => i.email === "b@example.com",
    )!;
    const full = await b.browser.post("/organization/accept-invitation", { invitationId: bInvite.id });
    expect(full.status).toBe(403);
    expect(full.json).toMatchObject({ code: "ORGANIZATION_MEMBERSHIP_LIMIT_REACHED" });
    const [still] = await rows<{ status: string }>(t, "invitation", [{ field: "id", value: bInvite.id }]);
    expect(still!.status).toBe("pending");
  });
});

describe("application callbacks (SQLite)", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await orgInstance("sqlite", {
      organizationHooks: {
        beforeCreateOrganization: ({ organization }) => {
          if (String(organization.slug).startsWith("blocked")) {
            throw APIError.from("FORBIDDEN", "SLUG_BLOCKED_BY_POLICY", "This slug is blocked by policy");
          }
        },
      },
      sendInvitationEmail: ({ email }) => {
        if (email.endsWith("@bounce.example")) throw APIError.from("UNPROCESSABLE_ENTITY", "MAILBOX_REFUSED", "The mailbox refused it");
      },
    });
  });
  afterAll(() => t.close());

  it("an APIError of the application's own code from a hook or the sender reaches the client as it is", async () => {
    const { browser } = await signUp(t, "policy-owner");
    const refused = await browser.post<{ code: string }>("/organization/create", { name: "Blocked", slug: "blocked-one" });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ code: "SLUG_BLOCKED_BY_POLICY", message: "This slug is blocked by policy" });
    expect(await rows(t, "organization")).toHaveLength(0);

    const organizationId = await createOrg(browser, "allowed-one");
    const bounced = await browser.post("/organization/invite-member", { organizationId, email: "x@bounce.example", role: "member" });
    expect(bounced.status).toBe(422);
    expect(bounced.json).toEqual({ code: "MAILBOX_REFUSED", message: "The mailbox refused it" });
  });
});
