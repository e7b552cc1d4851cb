import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAuth } from "@latchkey/test-support";
import type Database from "better-sqlite3";
import { adminInstance, member } from "./instance.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await adminInstance("sqlite", { schema: { user: { fields: { role: "user_role", banReason: "ban_reason" } }, session: { fields: { impersonatedBy: "impersonated_by" } } } });
});
afterAll(() => t.close());

describe("schema option", () => {
  it("stores the admin fields under the renamed columns", async () => {
    const root = await member(t, "schema-root", "admin");
    const target = await member(t, "schema-target");
    expect((await root.browser.post("/admin/ban-user", { userId: target.id, banReason: "renamed" })).status).toBe(200);
    const sqlite = t.database.driver as Database.Database;
    const row = sqlite.prepare(`select "user_role", "ban_reason", "banned" from "user" where "id" = ?`).get(target.id);
    expect(row).toEqual({ user_role: "user", ban_reason: "renamed", banned: 1 });
    // A banned user cannot be impersonated (the ban gate refuses the session), as in the reference.
    expect((await root.browser.post("/admin/impersonate-user", { userId: target.id })).status).toBe(403);
    await root.browser.post("/admin/unban-user", { userId: target.id });
    expect((await root.browser.post("/admin/impersonate-user", { userId: target.id })).status).toBe(200);
    const session = sqlite.prepare(`select "impersonated_by" from "session" where "userId" = ? and "impersonated_by" is not null`).get(target.id);
    expect(session).toEqual({ impersonated_by: root.id });
  });
});
