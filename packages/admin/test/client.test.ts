import { createAuthClient } from "@latchkey/client";
import { browserFetch, CookieJar, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient } from "../src/client.ts";
import { adminInstance, member } from "./instance.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await adminInstance("sqlite");
});
afterAll(() => t.close());

/** A `@latchkey/client` in front of the instance, with one browser's cookie jar. */
function browserClient(jar = new CookieJar()) {
  return createAuthClient({
    baseURL: "http://localhost:3000",
    fetch: browserFetch((request) => t.auth.handler(request), jar),
    plugins: [adminClient()],
  });
}

describe("adminClient", () => {
  it("drives every admin route through client.admin", async () => {
    const root = await member(t, "client-root", "admin");
    const jar = new CookieJar();
    for (const [name, value] of root.browser.jar.values) jar.values.set(name, value);
    const c = browserClient(jar);
    const made = await c.admin.createUser({ email: "client-made@example.com", password: "long-enough-password", name: "Made" });
    const id = made.data!.user.id;
    expect((await c.admin.getUser({ query: { id } })).data?.email).toBe("client-made@example.com");
    expect((await c.admin.listUsers({ query: { searchValue: "client-made", limit: 5 } })).data).toMatchObject({ total: 1 });
    expect((await c.admin.setRole({ userId: id, role: "user" })).data?.user.role).toBe("user");
    expect((await c.admin.updateUser({ userId: id, data: { name: "Renamed" } })).data?.name).toBe("Renamed");
    expect((await c.admin.banUser({ userId: id, banExpiresIn: 60 })).data?.user.banned).toBe(true);
    expect((await c.admin.unbanUser({ userId: id })).data?.user.banned).toBe(false);
    expect((await c.admin.setUserPassword({ userId: id, newPassword: "another-password" })).data).toEqual({ status: true });
    const imp = await c.admin.impersonateUser({ userId: id });
    expect(imp.data?.session.impersonatedBy).toBe(root.id);
    expect((await c.getSession()).data?.user.id).toBe(id);
    expect((await c.admin.stopImpersonating()).data?.user.id).toBe(root.id);
    expect((await c.admin.listUserSessions({ userId: id })).data?.sessions).toEqual([]);
    expect((await c.admin.revokeUserSession({ sessionToken: "none" })).data).toEqual({ success: true });
    expect((await c.admin.revokeUserSessions({ userId: id })).data).toEqual({ success: true });
    expect((await c.admin.hasPermission({ permissions: { user: ["ban"] } })).data).toEqual({ error: null, success: true });
    expect((await c.admin.removeUser({ userId: id })).data).toEqual({ success: true });
    const refused = await c.admin.removeUser({ userId: root.id });
    expect(refused.error).toMatchObject({ status: 400, code: "YOU_CANNOT_REMOVE_YOURSELF" });
  });

  it("checkRolePermission checks roles on the client", () => {
    const c = browserClient();
    expect(c.admin.checkRolePermission({ role: "admin", permissions: { user: ["ban"] } })).toBe(true);
    expect(c.admin.checkRolePermission({ role: "user", permissions: { user: ["ban"] } })).toBe(false);
    expect(c.admin.checkRolePermission({ role: "user,admin", permissions: { session: ["revoke"] } })).toBe(true);
  });
});
