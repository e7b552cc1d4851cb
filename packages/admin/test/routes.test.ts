import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAuth } from "@latchkey/test-support";
import { adminInstance, client, member, signIn, storedUser, type Member } from "./instance.ts";

let t: TestAuth;
let root: Member;
let plain: Member;
beforeAll(async () => {
  t = await adminInstance("sqlite");
  root = await member(t, "root", "admin");
  plain = await member(t, "plain");
});
afterAll(() => t.close());

describe("admin routes (SQLite)", () => {
  it("new users get the default role and the ban columns", async () => {
    const row = await storedUser(t, plain.id);
    expect(row).toMatchObject({ role: "user", banned: false });
    const answer = await plain.browser.get<{ user: Record<string, unknown> }>("/get-session");
    expect(answer.json?.user).toMatchObject({ role: "user", banned: false, banReason: null, banExpires: null });
  });

  it("create-user makes a user with a credential account who can sign in", async () => {
    const created = await root.browser.post<{ user: { id: string; email: string; role: string } }>("/admin/create-user", {
      email: "Created@Example.com",
      password: "a-long-enough-password",
      name: "Created",
      role: ["user", "admin"],
      data: { image: "https://example.com/a.png", unknownKey: 1 },
    });
    expect(created.status).toBe(200);
    expect(created.json?.user).toMatchObject({ email: "created@example.com", role: "user,admin", image: "https://example.com/a.png" });
    const { answer } = await signIn(t, "created@example.com", "a-long-enough-password");
    expect(answer.status).toBe(200);
    const again = await root.browser.post("/admin/create-user", { email: "created@example.com", password: "a-long-enough-password", name: "x" });
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", message: "User already exists. Use another email." });
  });

  it("create-user and set-user-password enforce the password length limits (row 73)", async () => {
    const short = await root.browser.post("/admin/create-user", { email: "short@example.com", password: "short", name: "S" });
    expect(short.status).toBe(400);
    expect(short.json).toEqual({ code: "PASSWORD_TOO_SHORT", message: "Password too short" });
    const long = await root.browser.post("/admin/create-user", { email: "long@example.com", password: "x".repeat(129), name: "L" });
    expect(long.json).toEqual({ code: "PASSWORD_TOO_LONG", message: "Password too long" });
    expect(await t.auth.$context.internalAdapter.findUserByEmail("short@example.com")).toBeNull();
    const exact = await root.browser.post("/admin/create-user", { email: "exact@example.com", password: "x".repeat(8), name: "E" });
    expect(exact.status).toBe(200);
    const set = await root.browser.post("/admin/set-user-password", { userId: plain.id, newPassword: "1234567" });
    expect(set.json).toEqual({ code: "PASSWORD_TOO_SHORT", message: "Password too short" });
  });

  it("set-role stores the roles joined by commas; get-user answers the user", async () => {
    const target = await member(t, "role-target");
    const set = await root.browser.post<{ user: { role: string } }>("/admin/set-role", { userId: target.id, role: ["admin", "user"] });
    expect(set.json?.user.role).toBe("admin,user");
    const got = await root.browser.get<{ id: string; role: string }>(`/admin/get-user?id=${target.id}`);
    expect(got.json).toMatchObject({ id: target.id, role: "admin,user" });
    const missing = await root.browser.get("/admin/get-user?id=nope");
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ code: "USER_NOT_FOUND", message: "User not found" });
  });

  it("update-user writes columns and refuses password, empty data and taken emails", async () => {
    const target = await member(t, "update-target");
    const updated = await root.browser.post<{ name: string; email: string }>("/admin/update-user", {
      userId: target.id,
      data: { name: "Renamed", email: "Renamed@Example.com" },
    });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ name: "Renamed", email: "renamed@example.com" });
    const pw = await root.browser.post("/admin/update-user", { userId: target.id, data: { password: "x" } });
    expect(pw.json).toMatchObject({ code: "PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER" });
    const empty = await root.browser.post("/admin/update-user", { userId: target.id, data: {} });
    expect(empty.json).toEqual({ code: "NO_DATA_TO_UPDATE", message: "No data to update" });
    const taken = await root.browser.post("/admin/update-user", { userId: target.id, data: { email: root.email } });
    expect(taken.json).toMatchObject({ code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" });
    const badType = await root.browser.post("/admin/update-user", { userId: target.id, data: { name: { $ne: 1 } } });
    expect(badType.status).toBe(400);
  });

  it("ban-user bans, ends the sessions and refuses sign-in; unban lifts it", async () => {
    const target = await member(t, "ban-target");
    const banned = await root.browser.post<{ user: Record<string, unknown> }>("/admin/ban-user", { userId: target.id, banReason: "spam" });
    expect(banned.status).toBe(200);
    expect(banned.json?.user).toMatchObject({ banned: true, banReason: "spam", banExpires: null });
    expect((await target.browser.get("/get-session")).json).toBeNull();
    const { answer } = await signIn(t, target.email);
    expect(answer.status).toBe(403);
    expect(answer.json).toEqual({
      code: "BANNED_USER",
      message: "You have been banned from this application. Please contact support if you believe this is an error.",
    });
    const self = await root.browser.post("/admin/ban-user", { userId: root.id });
    expect(self.json).toEqual({ code: "YOU_CANNOT_BAN_YOURSELF", message: "You cannot ban yourself" });
    const unbanned = await root.browser.post<{ user: Record<string, unknown> }>("/admin/unban-user", { userId: target.id });
    expect(unbanned.json?.user).toMatchObject({ banned: false, banReason: null, banExpires: null });
    expect((await signIn(t, target.email)).answer.status).toBe(200);
  });

  it("banExpiresIn is seconds; an expired ban is lifted at the next sign-in", async () => {
    const target = await member(t, "ban-expiry");
    const before = Date.now();
    const banned = await root.browser.post<{ user: { banExpires: string } }>("/admin/ban-user", { userId: target.id, banExpiresIn: 60 });
    const ends = new Date(banned.json!.user.banExpires).getTime();
    expect(ends).toBeGreaterThanOrEqual(before + 59_000);
    expect(ends).toBeLessThanOrEqual(Date.now() + 61_000);
    expect((await signIn(t, target.email)).answer.status).toBe(403);
    await t.auth.$context.internalAdapter.updateUser(target.id, { banExpires: new Date(Date.now() - 1000) } as never);
    expect((await signIn(t, target.email)).answer.status).toBe(200);
    expect(await storedUser(t, target.id)).toMatchObject({ banned: false, banReason: null, banExpires: null });
    for (const bad of [0, -5, 1e300, "60"]) {
      const refused = await root.browser.post("/admin/ban-user", { userId: target.id, banExpiresIn: bad });
      expect(refused.status, String(bad)).toBe(400);
    }
    expect(await storedUser(t, target.id)).toMatchObject({ banned: false });
  });

  it("list-user-sessions, revoke-user-session and revoke-user-sessions", async () => {
    const target = await member(t, "sessions-target");
    const second = (await signIn(t, target.email)).answer.json!.token!;
    const listed = await root.browser.post<{ sessions: { token: string }[] }>("/admin/list-user-sessions", { userId: target.id });
    expect(listed.json?.sessions.map((s) => s.token).sort()).toEqual([target.token, second].sort());
    expect((await root.browser.post("/admin/revoke-user-session", { sessionToken: second })).json).toEqual({ success: true });
    expect(await t.auth.$context.internalAdapter.findSession(second)).toBeNull();
    expect((await root.browser.post("/admin/revoke-user-sessions", { userId: target.id })).json).toEqual({ success: true });
    expect(await t.auth.$context.internalAdapter.findSession(target.token)).toBeNull();
  });

  it("set-user-password replaces the password, or creates the credential account", async () => {
    const target = await member(t, "password-target");
    expect((await root.browser.post("/admin/set-user-password", { userId: target.id, newPassword: "brand-new-password" })).json).toEqual({ status: true });
    expect((await signIn(t, target.email, "brand-new-password")).answer.status).toBe(200);
    expect((await signIn(t, target.email)).answer.status).toBe(401);
    const bare = await root.browser.post<{ user: { id: string; email: string } }>("/admin/create-user", { email: "nopw@example.com", name: "No" });
    expect((await root.browser.post("/admin/set-user-password", { userId: bare.json!.user.id, newPassword: "first-password" })).json).toEqual({ status: true });
    expect((await signIn(t, "nopw@example.com", "first-password")).answer.status).toBe(200);
  });

  it("remove-user deletes the user, its sessions and accounts; not oneself", async () => {
    const target = await member(t, "remove-target");
    expect((await root.browser.post("/admin/remove-user", { userId: target.id })).json).toEqual({ success: true });
    expect(await storedUser(t, target.id)).toBeNull();
    expect(await t.auth.$context.internalAdapter.findSession(target.token)).toBeNull();
    const self = await root.browser.post("/admin/remove-user", { userId: root.id });
    expect(self.json).toEqual({ code: "YOU_CANNOT_REMOVE_YOURSELF", message: "You cannot remove yourself" });
    const missing = await root.browser.post("/admin/remove-user", { userId: "nope" });
    expect(missing.status).toBe(404);
  });

  it("has-permission answers for the caller; server code asks for a role or a user", async () => {
    const asked = { permissions: { user: ["ban"] } };
    expect((await root.browser.post("/admin/has-permission", asked)).json).toEqual({ error: null, success: true });
    expect((await plain.browser.post("/admin/has-permission", { ...asked, role: "admin" })).json).toEqual({ error: null, success: false });
    const api = t.auth.api as unknown as Record<string, (a: unknown) => Promise<unknown>>;
    expect(await api.userHasPermission!({ body: { role: "admin", ...asked } })).toEqual({ error: null, success: true });
    expect(await api.userHasPermission!({ body: { userId: plain.id, ...asked } })).toEqual({ error: null, success: false });
    expect(await api.userHasPermission!({ body: { userId: root.id, permission: { user: ["ban"] } } })).toEqual({ error: null, success: true });
    const anonymous = await client(t.auth).post("/admin/has-permission", asked);
    expect(anonymous.status).toBe(401);
  });
});
