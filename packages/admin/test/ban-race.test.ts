import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseKind, TestAuth } from "@latchkey/test-support";
import { adminInstance, client, member, PASSWORD, sessionGap, type Member } from "./instance.ts";

/**
 * A ban racing a sign-in must never leave the banned user a usable session. The application's
 * own session hook runs after the plugin's check and before the insert, so it can land the ban
 * exactly in the gap the check alone would miss.
 */
describe.each(["sqlite", "postgres", "mysql"] as DatabaseKind[])("ban racing sign-in on %s", (kind) => {
  let t: TestAuth;
  let root: Member;
  const gap = sessionGap();

  beforeAll(async () => {
    t = await adminInstance(kind, undefined, { databaseHooks: gap.hooks });
    root = await member(t, `race-root-${kind}`, "admin");
  });
  afterAll(() => t.close());

  const liveSessions = (userId: string) => t.auth.$context.internalAdapter.listSessions(userId);

  it("a ban landing between the ban check and the session insert still refuses the sign-in", async () => {
    const target = await member(t, `gap-${kind}`);
    gap.next = async () => {
      const banned = await root.browser.post("/admin/ban-user", { userId: target.id });
      expect(banned.status).toBe(200);
    };
    const browser = client(t.auth);
    const answer = await browser.post("/sign-in/email", { email: target.email, password: PASSWORD });
    expect(gap.next).toBeNull();
    expect(answer.status).toBe(403);
    expect((answer.json as { code: string }).code).toBe("BANNED_USER");
    expect(await liveSessions(target.id)).toEqual([]);
    expect((await browser.get("/get-session")).json).toBeNull();
  });

  it("parallel sign-ins around a ban leave no session, and no 200 answer holds a usable one", async () => {
    const target = await member(t, `parallel-${kind}`);
    const browsers = Array.from({ length: 6 }, () => client(t.auth));
    const signIns = browsers.map((b) => b.post("/sign-in/email", { email: target.email, password: PASSWORD }));
    const ban = new Promise((resolve) => setTimeout(resolve, 15)).then(() =>
      root.browser.post("/admin/ban-user", { userId: target.id }),
    );
    const [answers, banned] = await Promise.all([Promise.all(signIns), ban]);
    expect(banned.status).toBe(200);
    for (const answer of answers) expect([200, 403]).toContain(answer.status);
    expect(await liveSessions(target.id)).toEqual([]);
    for (const b of [target.browser, ...browsers]) expect((await b.get("/get-session")).json).toBeNull();
  });
});
