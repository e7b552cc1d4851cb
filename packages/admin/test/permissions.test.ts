import { createAccessControl } from "@latchkey/access";
import { adminAc, defaultStatements, userAc } from "@latchkey/access/admin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAuth } from "@latchkey/test-support";
import { adminInstance, client, member, type Member } from "./instance.ts";

/** Every admin route with a valid body for a plain user, and the 403 code the route answers. */
const ROUTES = (targetId: string) =>
  [
    ["POST", "/admin/set-role", { userId: targetId, role: "admin" }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE"],
    ["GET", `/admin/get-user?id=${targetId}`, undefined, "YOU_ARE_NOT_ALLOWED_TO_GET_USER"],
    ["POST", "/admin/create-user", { email: "made@example.com", name: "M", password: "long-enough-1" }, "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS"],
    ["POST", "/admin/update-user", { userId: targetId, data: { name: "x" } }, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS"],
    ["GET", "/admin/list-users", undefined, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS"],
    ["POST", "/admin/list-user-sessions", { userId: targetId }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS"],
    ["POST", "/admin/unban-user", { userId: targetId }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS"],
    ["POST", "/admin/ban-user", { userId: targetId }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS"],
    ["POST", "/admin/impersonate-user", { userId: targetId }, "YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS"],
    ["POST", "/admin/revoke-user-session", { sessionToken: "x" }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS"],
    ["POST", "/admin/revoke-user-sessions", { userId: targetId }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS"],
    ["POST", "/admin/remove-user", { userId: targetId }, "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS"],
    ["POST", "/admin/set-user-password", { userId: targetId, newPassword: "long-enough-1" }, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD"],
  ] as const;

let t: TestAuth;
let plain: Member;
let target: Member;
beforeAll(async () => {
  t = await adminInstance("sqlite");
  plain = await member(t, "perm-plain");
  target = await member(t, "perm-target");
});
afterAll(() => t.close());

const send = (m: Member | null, method: string, path: string, body: unknown) => {
  const browser = m?.browser ?? client(t.auth);
  return method === "GET" ? browser.get(path) : browser.post(path, body);
};

describe("permission checks", () => {
  it.each(ROUTES("placeholder").map((r) => [r[1], r[3]]))("%s: a user without the permission gets 403 %s", async (path) => {
    const route = ROUTES(target.id).find((r) => r[1].split("?")[0] === path.split("?")[0])!;
    const answer = await send(plain, route[0], route[1], route[2]);
    expect(answer.status).toBe(403);
    expect((answer.json as { code: string }).code).toBe(route[3]);
  });

  it.each(ROUTES("placeholder").map((r) => [r[1]]))("%s: no session is 401", async (path) => {
    const route = ROUTES(target.id).find((r) => r[1].split("?")[0] === path.split("?")[0])!;
    const answer = await send(null, route[0], route[1], route[2]);
    expect(answer.status).toBe(401);
  });

  it("a refused request writes nothing", async () => {
    await send(plain, "POST", "/admin/ban-user", { userId: target.id });
    await send(plain, "POST", "/admin/set-role", { userId: target.id, role: "admin" });
    const row = await t.auth.$context.internalAdapter.findUserById(target.id);
    expect(row).toMatchObject({ role: "user", banned: false });
  });

  it("update-user and create-user need set-role, ban and set-email for those fields", async () => {
    const ac = createAccessControl(defaultStatements);
    const roles = {
      admin: adminAc,
      user: userAc,
      support: ac.newRole({ user: ["update", "create"] }),
    };
    const t2 = await adminInstance("sqlite", { roles });
    try {
      const support = await member(t2, "support", "support");
      const other = await member(t2, "support-target");
      const post = (path: string, body: unknown) => support.browser.post(path, body);
      expect((await post("/admin/update-user", { userId: other.id, data: { name: "ok" } })).status).toBe(200);
      expect((await post("/admin/update-user", { userId: other.id, data: { role: "admin" } })).json).toMatchObject({ code: "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE" });
      expect((await post("/admin/update-user", { userId: other.id, data: { banned: true } })).json).toMatchObject({ code: "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS" });
      expect((await post("/admin/update-user", { userId: other.id, data: { email: "n@example.com" } })).json).toMatchObject({ code: "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_EMAIL" });
      expect((await post("/admin/create-user", { email: "c1@example.com", name: "c", role: "admin" })).json).toMatchObject({ code: "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE" });
      expect((await post("/admin/create-user", { email: "c1@example.com", name: "c", data: { banned: true } })).json).toMatchObject({ code: "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS" });
      expect((await post("/admin/create-user", { email: "c1@example.com", name: "c" })).status).toBe(200);
      // A custom role list: an unknown role name is refused.
      const root = await member(t2, "custom-root", "admin");
      const unknown = await root.browser.post("/admin/set-role", { userId: other.id, role: "superuser" });
      expect(unknown.json).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE", message: "You are not allowed to set a non-existent role value" });
      expect((await root.browser.post("/admin/set-role", { userId: other.id, role: "support" })).status).toBe(200);
    } finally {
      await t2.close();
    }
  });

  it("adminUserIds pass every check whatever their role, and count as admins for impersonation", async () => {
    // The id is known only after sign-up; the option keeps the array it was given.
    const ids: string[] = [];
    const t2 = await adminInstance("sqlite", { adminUserIds: ids });
    try {
      const chief = await member(t2, "chief");
      const root = await member(t2, "ids-root", "admin");
      expect((await chief.browser.get("/admin/list-users")).status).toBe(403);
      ids.push(chief.id);
      const listed = await chief.browser.get<{ total: number }>("/admin/list-users");
      expect(listed.status).toBe(200);
      expect(listed.json?.total).toBe(2);
      const refused = await root.browser.post("/admin/impersonate-user", { userId: chief.id });
      expect(refused.json).toMatchObject({ code: "YOU_CANNOT_IMPERSONATE_ADMINS" });
      expect((await chief.browser.post("/admin/impersonate-user", { userId: root.id })).status).toBe(200);
    } finally {
      await t2.close();
    }
  });

  it("misconfigured options are TypeErrors", async () => {
    const { admin } = await import("../src/index.ts");
    expect(() => admin({ adminRoles: ["owner"] })).toThrow(TypeError);
    expect(() => admin({ impersonationSessionDuration: 0 })).toThrow(TypeError);
    expect(() => admin({ defaultBanExpiresIn: -1 })).toThrow(TypeError);
    expect(admin({ adminRoles: "admin" }).options.adminRoles).toEqual(["admin"]);
    expect(admin().options).toMatchObject({ defaultRole: "user", impersonationSessionDuration: 3600, allowImpersonatingAdmins: false });
  });
});
