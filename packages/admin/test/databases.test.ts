import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseKind, TestAuth } from "@latchkey/test-support";
import { NOT_IMPERSONATING, adminInstance, client, member, raceStopImpersonating, type Member } from "./instance.ts";

describe.each(["postgres", "mysql"] as DatabaseKind[])("admin on %s", (kind) => {
  let t: TestAuth;
  let root: Member;
  beforeAll(async () => {
    t = await adminInstance(kind);
    root = await member(t, `db-root-${kind}`, "admin");
  });
  afterAll(() => t.close());

  it("create, list, set-role, ban, unban and remove", async () => {
    const made = await root.browser.post<{ user: { id: string } }>("/admin/create-user", {
      email: `db-made-${kind}@example.com`,
      name: "Made",
      password: "long-enough-password",
      data: { banned: true, banReason: "pre-banned", banExpires: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(made.status).toBe(200);
    const id = made.json!.user.id;
    const found = await root.browser.get<{ users: { id: string; banned: boolean }[]; total: number }>(
      `/admin/list-users?searchValue=db-made&filterField=banned&filterValue=true`,
    );
    expect(found.json).toMatchObject({ total: 1, users: [{ id, banned: true }] });
    const signIn = await client(t.auth).post("/sign-in/email", { email: `db-made-${kind}@example.com`, password: "long-enough-password" });
    expect(signIn.status).toBe(403);
    expect((await root.browser.post("/admin/unban-user", { userId: id })).status).toBe(200);
    expect((await root.browser.post("/admin/set-role", { userId: id, role: ["user", "admin"] })).status).toBe(200);
    expect((await root.browser.post("/admin/remove-user", { userId: id })).json).toEqual({ success: true });
  });

  it("parallel create-user calls for one email make one user; the others are told the email is taken", async () => {
    const email = `db-twin-${kind}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => root.browser.post("/admin/create-user", { email, name: "Twin", password: "long-enough-password" })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.json).toEqual({ code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", message: "User already exists. Use another email." });
    }
    const listed = await root.browser.get<{ total: number }>(`/admin/list-users?searchValue=db-twin-${kind}`);
    expect(listed.json?.total).toBe(1);
  });

  it("stop-impersonating raced by parallel replays ends the impersonation once", async () => {
    const target = await member(t, `db-imp-${kind}`);
    const { token, answers } = await raceStopImpersonating(t, root, target);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200 && a.status !== 401).map((a) => a.json)).toEqual(
      answers.filter((a) => a.status === 400).map(() => NOT_IMPERSONATING),
    );
    expect(await t.auth.$context.internalAdapter.findSession(token)).toBeNull();
  });

  it("an impersonate-user request replayed after the administrator signed out is refused", async () => {
    const admin = await member(t, `db-replay-${kind}`, "admin");
    const target = await member(t, `db-replay-target-${kind}`);
    const cookie = admin.browser.jar.header()!;
    const first = await client(t.auth).post("/admin/impersonate-user", { userId: target.id }, { headers: { cookie } });
    expect(first.status).toBe(200);
    await admin.browser.post("/sign-out");
    const replay = await client(t.auth).post("/admin/impersonate-user", { userId: target.id }, { headers: { cookie } });
    expect(replay.status).toBe(401);
  });
});
