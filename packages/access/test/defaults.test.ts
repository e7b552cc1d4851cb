import { describe, expect, it } from "vitest";
import * as admin from "../src/admin.ts";
import * as organization from "../src/organization.ts";

describe("organization defaults", () => {
  it("owner may do everything, admin everything but delete the organization, member only read roles", () => {
    const { ownerAc, adminAc, memberAc, defaultStatements } = organization;
    for (const [resource, actions] of Object.entries(defaultStatements))
      expect(ownerAc.authorize({ [resource]: actions })).toEqual({ success: true });
    expect(adminAc.authorize({ organization: ["delete"] }).success).toBe(false);
    expect(
      adminAc.authorize({ organization: ["update"], member: ["delete"], team: ["create"] }).success,
    ).toBe(true);
    expect(memberAc.authorize({ ac: ["read"] }).success).toBe(true);
    expect(memberAc.authorize({ member: ["create"] }).success).toBe(false);
    expect(Object.keys(organization.defaultRoles)).toEqual(["admin", "owner", "member"]);
  });
});

describe("admin defaults", () => {
  it("admin may do every user and session action except impersonate admins; user none", () => {
    const { adminAc, userAc, defaultStatements } = admin;
    expect(adminAc.authorize({ session: defaultStatements.session }).success).toBe(true);
    expect(adminAc.authorize({ user: ["impersonate-admins"] }).success).toBe(false);
    expect(
      adminAc.authorize({ user: defaultStatements.user.filter((a) => a !== "impersonate-admins") }).success,
    ).toBe(true);
    expect(userAc.authorize({ user: ["get"] }).success).toBe(false);
    expect(Object.keys(admin.defaultRoles)).toEqual(["admin", "user"]);
  });
});
