import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAuth } from "@latchkey/test-support";
import { createAccessControl } from "@latchkey/access";
import { defaultStatements } from "../src/access.ts";
import { fastUser } from "./fast-users.ts";
import { addMember, createOrg, orgInstance, rows } from "./instance.ts";

describe("dynamic access control (SQLite)", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await orgInstance("sqlite", {
      ac: createAccessControl(defaultStatements),
      dynamicAccessControl: { enabled: true, maximumRolesPerOrganization: 2 },
    });
  });
  afterAll(() => t.close());

  it("creates, reads, assigns, updates and deletes a stored role; grants only what the creator holds", async () => {
    const owner = await fastUser(t, "role-owner");
    const orgId = await createOrg(owner.browser, "role-org");
    const created = await owner.browser.post<{ roleData: { role: string; permission: unknown } }>("/organization/create-role", {
      role: "Support",
      permission: { member: ["update"], invitation: ["create"] },
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ success: true, roleData: { role: "support", permission: { member: ["update"], invitation: ["create"] } } });
    const [stored] = await rows<{ permission: string }>(t, "organizationRole", [{ field: "organizationId", value: orgId }]);
    expect(stored!.permission).toBe('{"member":["update"],"invitation":["create"]}');

    expect((await owner.browser.post("/organization/create-role", { role: "admin", permission: {} })).json).toMatchObject({ code: "ROLE_NAME_IS_ALREADY_TAKEN" });
    expect((await owner.browser.post("/organization/create-role", { role: "support", permission: {} })).json).toMatchObject({ code: "ROLE_NAME_IS_ALREADY_TAKEN" });
    expect((await owner.browser.post("/organization/create-role", { role: "x", permission: { spaceship: ["fly"] } })).json).toMatchObject({ code: "INVALID_RESOURCE" });

    const worker = await fastUser(t, "role-worker");
    const member = await addMember(t, orgId, worker.userId, "member");
    expect((await owner.browser.post("/organization/update-member-role", { memberId: member.id, role: "ghost" })).json).toEqual({
      code: "ROLE_NOT_FOUND",
      message: "ROLE_NOT_FOUND: ghost",
    });
    expect((await owner.browser.post<{ role: string }>("/organization/update-member-role", { memberId: member.id, role: "support" })).json!.role).toBe("support");
    await worker.browser.post("/organization/set-active", { organizationId: orgId });
    const can = (permissions: Record<string, string[]>) => worker.browser.post<{ success: boolean }>("/organization/has-permission", { permissions });
    expect((await can({ member: ["update"] })).json!.success).toBe(true);
    expect((await can({ member: ["delete"] })).json!.success).toBe(false);

    // A member may not grant what it does not hold itself.
    const admin = await fastUser(t, "role-admin");
    await addMember(t, orgId, admin.userId, "admin");
    await admin.browser.post("/organization/set-active", { organizationId: orgId });
    const tooMuch = await admin.browser.post("/organization/create-role", { role: "deleter", permission: { organization: ["delete"] } });
    expect(tooMuch.status).toBe(403);
    expect(tooMuch.json).toMatchObject({ code: "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE", missingPermissions: ["organization:delete"] });
    expect((await worker.browser.post("/organization/create-role", { role: "w", permission: {} })).json).toMatchObject({
      code: "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE",
    });

    // The worker's only role is "support", which grants no `ac:read`.
    expect((await worker.browser.get("/organization/list-roles")).json).toMatchObject({ code: "YOU_ARE_NOT_ALLOWED_TO_LIST_A_ROLE" });
    const listed = await owner.browser.get<{ role: string; permission: unknown }[]>("/organization/list-roles");
    expect(listed.json).toMatchObject([{ role: "support", permission: { member: ["update"], invitation: ["create"] } }]);
    expect((await owner.browser.get("/organization/get-role?roleName=support")).json).toMatchObject({ role: "support" });
    expect((await owner.browser.get("/organization/get-role?roleName=nope")).json).toMatchObject({ code: "ROLE_NOT_FOUND" });

    const updated = await owner.browser.post<{ roleData: { permission: unknown } }>("/organization/update-role", {
      roleName: "support",
      data: { permission: { member: ["update", "delete"] } },
    });
    expect(updated.json!.roleData.permission).toEqual({ member: ["update", "delete"] });
    expect((await can({ member: ["delete"] })).json!.success).toBe(true);

    await owner.browser.post("/organization/create-role", { role: "second", permission: { team: ["update"] } });
    expect((await owner.browser.post("/organization/create-role", { role: "third", permission: {} })).json).toMatchObject({ code: "TOO_MANY_ROLES" });
    expect((await owner.browser.post("/organization/delete-role", { roleName: "support" })).json).toMatchObject({ code: "ROLE_IS_ASSIGNED_TO_MEMBERS" });
    expect((await owner.browser.post("/organization/delete-role", { roleName: "owner" })).json).toMatchObject({ code: "CANNOT_DELETE_A_PRE_DEFINED_ROLE" });
    expect((await owner.browser.post("/organization/delete-role", { roleName: "second" })).json).toEqual({ success: true });
  });

  it("a corrupt stored permission is a 500 naming the role, never a grant", async () => {
    const owner = await fastUser(t, "corrupt-owner");
    const orgId = await createOrg(owner.browser, "corrupt-org");
    await t.auth.$context.adapter.create({
      model: "organizationRole",
      data: { id: "corrupt-role", organizationId: orgId, role: "broken", permission: "{not json", createdAt: new Date() },
    });
    const answer = await owner.browser.post("/organization/has-permission", { permissions: { member: ["update"] } });
    expect(answer.status).toBe(500);
  });
});
