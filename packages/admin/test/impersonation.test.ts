import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAuth } from "@latchkey/test-support";
import {
  ADMIN_COOKIE,
  NOT_IMPERSONATING,
  SESSION_COOKIE,
  adminInstance,
  client,
  member,
  raceStopImpersonating,
  type Member,
} from "./instance.ts";

let t: TestAuth;
let root: Member;
beforeAll(async () => {
  t = await adminInstance("sqlite", { impersonationSessionDuration: 120 });
});
afterAll(() => t.close());

beforeAll(async () => {
  root = await member(t, "imp-root", "admin");
});

interface SessionAnswer {
  session: { token: string; userId: string; impersonatedBy?: string | null; expiresAt: string };
  user: { id: string; email: string };
}

describe("impersonate-user and stop-impersonating", () => {
  it("switches the browser to the user and back, with the reference's admin_session cookie", async () => {
    const target = await member(t, "imp-target");
    const browser = client(t.auth);
    browser.jar.values.set(SESSION_COOKIE, root.browser.jar.values.get(SESSION_COOKIE)!);
    const before = Date.now();
    const started = await browser.post<SessionAnswer>("/admin/impersonate-user", { userId: target.id });
    expect(started.status).toBe(200);
    expect(started.json?.user.email).toBe(target.email);
    expect(started.json?.session).toMatchObject({ userId: target.id, impersonatedBy: root.id });
    // impersonationSessionDuration is seconds.
    const ends = new Date(started.json!.session.expiresAt).getTime();
    expect(ends).toBeGreaterThanOrEqual(before + 119_000);
    expect(ends).toBeLessThanOrEqual(Date.now() + 121_000);
    // admin_session = signed "<admin token>:<dont_remember or empty>", session cookie without Max-Age.
    const raw = decodeURIComponent(browser.jar.values.get(ADMIN_COOKIE)!);
    expect(raw.slice(0, raw.lastIndexOf("."))).toBe(`${root.token}:`);
    const sessionLine = started.headers.getSetCookie().filter((l) => l.startsWith(`${SESSION_COOKIE}=`)).at(-1)!;
    expect(sessionLine).not.toMatch(/Max-Age/);
    const me = await browser.get<{ user: { id: string } }>("/get-session");
    expect(me.json?.user.id).toBe(target.id);

    const stopped = await browser.post<SessionAnswer>("/admin/stop-impersonating");
    expect(stopped.status).toBe(200);
    expect(stopped.json?.user.id).toBe(root.id);
    expect(stopped.json?.session.token).toBe(root.token);
    expect(browser.jar.values.has(ADMIN_COOKIE)).toBe(false);
    expect((await browser.get<{ user: { id: string } }>("/get-session")).json?.user.id).toBe(root.id);
    expect(await t.auth.$context.internalAdapter.findSession(started.json!.session.token)).toBeNull();
  });

  it("the impersonation session is not refreshed past its duration by get-session", async () => {
    const target = await member(t, "imp-refresh");
    const browser = client(t.auth);
    browser.jar.values.set(SESSION_COOKIE, root.browser.jar.values.get(SESSION_COOKIE)!);
    const started = await browser.post<SessionAnswer>("/admin/impersonate-user", { userId: target.id });
    const ends = new Date(started.json!.session.expiresAt).getTime();
    const read = await browser.get<{ session: { expiresAt: string } }>("/get-session");
    expect(new Date(read.json!.session.expiresAt).getTime()).toBe(ends);
    const stored = await t.auth.$context.internalAdapter.findSession(started.json!.session.token);
    expect(stored!.session.expiresAt.getTime()).toBe(ends);
  });

  it("impersonation sessions are hidden from the user's /list-sessions", async () => {
    const target = await member(t, "imp-hidden");
    const browser = client(t.auth);
    browser.jar.values.set(SESSION_COOKIE, root.browser.jar.values.get(SESSION_COOKIE)!);
    await browser.post("/admin/impersonate-user", { userId: target.id });
    const own = await target.browser.get<{ token: string }[]>("/list-sessions");
    expect(own.json?.map((s) => s.token)).toEqual([target.token]);
    const listed = await root.browser.post<{ sessions: unknown[] }>("/admin/list-user-sessions", { userId: target.id });
    expect(listed.json?.sessions).toHaveLength(2);
  });

  it("refuses admins without impersonate-admins, stop without impersonation, and forged admin cookies", async () => {
    const other = await member(t, "imp-other-admin", "admin");
    const refused = await root.browser.post("/admin/impersonate-user", { userId: other.id });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ code: "YOU_CANNOT_IMPERSONATE_ADMINS", message: "You cannot impersonate admins" });
    const notImpersonating = await root.browser.post("/admin/stop-impersonating");
    expect(notImpersonating.status).toBe(400);
    expect(notImpersonating.json).toEqual({ message: "You are not impersonating anyone" });
    expect((await client(t.auth).post("/admin/stop-impersonating")).status).toBe(401);

    // Another admin's token in an unsigned admin cookie restores nothing.
    const target = await member(t, "imp-forged");
    const browser = client(t.auth);
    browser.jar.values.set(SESSION_COOKIE, root.browser.jar.values.get(SESSION_COOKIE)!);
    await browser.post("/admin/impersonate-user", { userId: target.id });
    browser.jar.values.set(ADMIN_COOKIE, encodeURIComponent(`${other.token}:`));
    const forged = await browser.post("/admin/stop-impersonating");
    expect(forged.status).toBe(400);
    expect(forged.json).toEqual({ message: "Failed to find admin session" });
    expect((await browser.get<{ user: { id: string } }>("/get-session")).json?.user.id).toBe(target.id);
  });

  it("allowImpersonatingAdmins lets an admin impersonate another admin", async () => {
    const t2 = await adminInstance("sqlite", { allowImpersonatingAdmins: true });
    try {
      const a = await member(t2, "allow-a", "admin");
      const b = await member(t2, "allow-b", "admin");
      expect((await a.browser.post("/admin/impersonate-user", { userId: b.id })).status).toBe(200);
    } finally {
      await t2.close();
    }
  });

  it("stop-impersonating is single-use: parallel replays of one request end it once", async () => {
    const target = await member(t, "imp-race");
    const { token, answers, cookie } = await raceStopImpersonating(t, root, target);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200 && a.status !== 401).map((a) => a.json)).toEqual(
      answers.filter((a) => a.status === 400).map(() => NOT_IMPERSONATING),
    );
    expect(await t.auth.$context.internalAdapter.findSession(token)).toBeNull();
    // Replayed afterwards, the request finds no session.
    expect((await client(t.auth).post("/admin/stop-impersonating", undefined, { headers: { cookie } })).status).toBe(401);
  });
});
