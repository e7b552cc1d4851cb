import { createAuthClient } from "better-auth/client";
import { adminClient } from "better-auth/client/plugins";
import { admin as referenceAdmin } from "better-auth/plugins";
import { admin } from "@latchkey/admin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_COOKIE, PASSWORD, call, createAdminPair, lastCookie, signIn, signUp, userRow, type PairUser } from "./support/admin-pair.ts";
import { jarFetch } from "./support/client-fetch.ts";
import { SESSION_COOKIE } from "./support/cookies.ts";
import { BASE_PATH, createPair, type Handler, type Pair } from "./support/instances.ts";
import { listen } from "./support/server.ts";

/**
 * `@latchkey/admin` beside the reference's `admin()` (better-auth/plugins) on one SQLite file
 * and one secret: users, roles, bans and impersonations written by one side are honoured by
 * the other, the reference's `adminClient()` works against Latchkey over HTTP, and the
 * divergence rows 73-78 are asserted on both sides. The route-by-route wire diff is in
 * admin-wire.test.ts.
 */
const BANNED = {
  code: "BANNED_USER",
  message: "You have been banned from this application. Please contact support if you believe this is an error.",
};

const sides = (pair: Pair): [string, Handler, Handler][] => [
  ["reference → latchkey", pair.reference, pair.latchkey],
  ["latchkey → reference", pair.latchkey, pair.reference],
];

describe("admin: stored state written by one side, honoured by the other", () => {
  let pair: Pair;
  let root: PairUser;
  beforeAll(async () => {
    pair = await createAdminPair();
    root = await signUp(pair, pair.reference, "root@example.com", "admin");
  });
  afterAll(() => pair.close());

  it("Latchkey finds the reference's admin columns and adds none", async () => {
    const problems = (await pair.latchkeyAuth.$context.adapter.findSchemaProblems?.()) ?? [];
    expect(problems).toEqual([]);
    const columns = (table: string) => (pair.db.prepare(`pragma table_info("${table}")`).all([]) as { name: string }[]).map((c) => c.name);
    expect(columns("user")).toEqual(expect.arrayContaining(["role", "banned", "banReason", "banExpires"]));
    expect(columns("session")).toContain("impersonatedBy");
  });

  it("new users get role `user` and `banned` false on both, stored alike", async () => {
    const r = await signUp(pair, pair.reference, "new-r@example.com");
    const l = await signUp(pair, pair.latchkey, "new-l@example.com");
    const pick = (row: Record<string, unknown>) => ({ role: row.role, banned: row.banned, banReason: row.banReason, banExpires: row.banExpires });
    expect(pick(userRow(pair, l.id))).toEqual(pick(userRow(pair, r.id)));
    expect(pick(userRow(pair, r.id))).toEqual({ role: "user", banned: 0, banReason: null, banExpires: null });
  });

  it.each([0, 1])("a user banned on one side cannot sign in on the other (%#)", async (i) => {
    const [, banner, other] = sides(pair)[i]!;
    const target = await signUp(pair, pair.reference, `banned-${i}@example.com`);
    const banned = await call(banner, "POST", "/admin/ban-user", root.cookie, { userId: target.id, banReason: "spam", banExpiresIn: 3600 });
    expect(banned.status).toBe(200);
    const row = userRow(pair, target.id);
    expect(row).toMatchObject({ banned: 1, banReason: "spam" });
    expect(String(row.banExpires)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const refused = await signIn(other, target.email);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(BANNED);
    expect((await signIn(banner, target.email)).body).toEqual(BANNED);
    // The ban ended every session: the old cookie is dead on both.
    for (const h of [pair.reference, pair.latchkey]) expect((await call(h, "GET", "/get-session", target.cookie)).json).toBeNull();
    expect((await call(other, "POST", "/admin/unban-user", root.cookie, { userId: target.id })).status).toBe(200);
    expect((await signIn(banner, target.email)).status).toBe(200);
  });

  it.each([0, 1])("an expired ban written by one side is lifted by the other's sign-in (%#)", async (i) => {
    const [, , other] = sides(pair)[i]!;
    const target = await signUp(pair, pair.reference, `expired-${i}@example.com`);
    pair.db
      .prepare(`update "user" set "banned" = 1, "banReason" = 'x', "banExpires" = ? where "id" = ?`)
      .run([new Date(Date.now() - 60_000).toISOString(), target.id]);
    expect((await signIn(other, target.email)).status).toBe(200);
    expect(userRow(pair, target.id)).toMatchObject({ banned: 0, banReason: null, banExpires: null });
  });

  it.each([0, 1])("roles set on one side grant on the other; users created on one sign in on the other (%#)", async (i) => {
    const [, writer, other] = sides(pair)[i]!;
    const deputy = await signUp(pair, pair.reference, `deputy-${i}@example.com`);
    expect((await call(other, "GET", "/admin/list-users", deputy.cookie)).status).toBe(403);
    expect((await call(writer, "POST", "/admin/set-role", root.cookie, { userId: deputy.id, role: ["user", "admin"] })).status).toBe(200);
    expect(userRow(pair, deputy.id).role).toBe("user,admin");
    expect((await call(other, "GET", "/admin/list-users?limit=1", deputy.cookie)).status).toBe(200);
    const made = await call(writer, "POST", "/admin/create-user", root.cookie, { email: `made-${i}@example.com`, password: PASSWORD, name: "Made" });
    expect(made.status).toBe(200);
    expect((await signIn(other, `made-${i}@example.com`)).status).toBe(200);
    const password = await call(writer, "POST", "/admin/set-user-password", root.cookie, {
      userId: (made.json as { user: { id: string } }).user.id,
      newPassword: "another-password-1",
    });
    expect(password.json).toEqual({ status: true });
    const signedIn = await other(new Request(`http://localhost:3000${BASE_PATH}/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `made-${i}@example.com`, password: "another-password-1" }),
    }));
    expect(signedIn.status).toBe(200);
  });

  it.each([0, 1])("an impersonation started on one side is stopped on the other (%#)", async (i) => {
    const [, starter, stopper] = sides(pair)[i]!;
    const target = await signUp(pair, pair.reference, `imp-${i}@example.com`);
    const started = await call(starter, "POST", "/admin/impersonate-user", root.cookie, { userId: target.id });
    expect(started.status).toBe(200);
    const session = (started.json as { session: { token: string; impersonatedBy: string; userId: string } }).session;
    expect(session).toMatchObject({ impersonatedBy: root.id, userId: target.id });
    const cookies = [lastCookie(started.response, SESSION_COOKIE), lastCookie(started.response, ADMIN_COOKIE)].join("; ");
    // The impersonation session is the user's on both, and hidden from the user's own list on both.
    for (const h of [pair.reference, pair.latchkey]) {
      expect(((await call(h, "GET", "/get-session", cookies)).json as { user: { id: string } }).user.id).toBe(target.id);
      const own = (await call(h, "GET", "/list-sessions", target.cookie)).json as { token: string }[];
      expect(own.map((s) => s.token)).toEqual([target.token]);
    }
    const stopped = await call(stopper, "POST", "/admin/stop-impersonating", cookies);
    expect(stopped.status).toBe(200);
    expect((stopped.json as { user: { id: string }; session: { token: string } }).session.token).toBe(root.token);
    const back = lastCookie(stopped.response, SESSION_COOKIE);
    expect(((await call(starter, "GET", "/get-session", back)).json as { user: { id: string } }).user.id).toBe(root.id);
    expect(pair.db.prepare(`select count(*) as n from "session" where "token" = ?`).all([session.token])[0]).toEqual({ n: 0 });
  });
});

describe("admin: the reference's adminClient() against Latchkey over real HTTP", () => {
  /** One flow through `authClient.admin.*`; each step's `{ data, error }` reduced to what both must share. */
  async function clientFlow(side: "reference" | "latchkey"): Promise<unknown[]> {
    const server = await listen();
    const pair = await createPair({
      baseURL: server.origin,
      reference: { plugins: [referenceAdmin()] },
      latchkey: { plugins: [admin()] },
    });
    server.use(pair[side]);
    try {
      const jar = jarFetch();
      const client = createAuthClient({
        baseURL: `${server.origin}${BASE_PATH}`,
        fetchOptions: { customFetchImpl: jar.fetch },
        plugins: [adminClient()],
      });
      const up = await client.signUp.email({ email: "client-root@example.com", password: PASSWORD, name: "Root" });
      pair.db.prepare(`update "user" set "role" = 'admin' where "id" = ?`).run([up.data!.user.id]);
      const steps: unknown[] = [];
      const made = await client.admin.createUser({ email: "client-made@example.com", password: PASSWORD, name: "Made", role: "user" });
      const id = made.data!.user.id;
      steps.push(made.data?.user.email, made.data?.user.role);
      const listed = await client.admin.listUsers({ query: { searchValue: "client-", sortBy: "email", limit: 10 } });
      steps.push(listed.data?.total, listed.data?.users.map((u) => u.email), (listed.data as { limit?: number } | null)?.limit);
      steps.push((await client.admin.getUser({ query: { id } })).data?.email);
      steps.push((await client.admin.setRole({ userId: id, role: "admin" })).data?.user.role);
      steps.push((await client.admin.setRole({ userId: id, role: "user" })).data?.user.role);
      steps.push((await client.admin.updateUser({ userId: id, data: { name: "Renamed" } })).data?.name);
      const banned = await client.admin.banUser({ userId: id, banReason: "r", banExpiresIn: 60 });
      steps.push(banned.data?.user.banned, banned.data?.user.banReason);
      steps.push((await client.admin.unbanUser({ userId: id })).data?.user.banned);
      steps.push((await client.admin.setUserPassword({ userId: id, newPassword: "another-password" })).data);
      const imp = await client.admin.impersonateUser({ userId: id });
      steps.push(imp.error, imp.data?.user.email, (await client.getSession()).data?.user.email);
      const stop = await client.admin.stopImpersonating();
      steps.push(stop.error, stop.data?.user.email, (await client.getSession()).data?.user.email);
      steps.push((await client.admin.listUserSessions({ userId: id })).data?.sessions.length);
      steps.push((await client.admin.revokeUserSessions({ userId: id })).data);
      steps.push((await client.admin.hasPermission({ permissions: { user: ["ban"] } })).data);
      steps.push(client.admin.checkRolePermission({ role: "admin", permissions: { user: ["ban"] } }));
      steps.push((await client.admin.removeUser({ userId: id })).data);
      const refused = await client.admin.removeUser({ userId: up.data!.user.id });
      steps.push(refused.error?.status, refused.error?.code);
      steps.push(jar.calls.map((c) => c.replace(/\?.*? →/, " →")));
      return steps;
    } finally {
      pair.close();
      await server.close();
    }
  }

  it("every step answers alike on both servers", async () => {
    const reference = await clientFlow("reference");
    expect(await clientFlow("latchkey")).toEqual(reference);
    expect(reference).toContain("YOU_CANNOT_REMOVE_YOURSELF");
  });
});

describe("admin: divergences (DIVERGENCES.md rows 73-79)", () => {
  let pair: Pair;
  let root: PairUser;
  /** Work the application's own session hook does between the plugin's ban check and the insert. */
  let inGap: (() => Promise<void>) | null = null;
  const gapHook = {
    session: {
      create: {
        before: async () => {
          const run = inGap;
          inGap = null;
          if (run) await run();
        },
      },
    },
  };
  beforeAll(async () => {
    pair = await createPair({
      reference: { plugins: [referenceAdmin()], databaseHooks: gapHook },
      latchkey: { plugins: [admin()], databaseHooks: gapHook },
    });
    root = await signUp(pair, pair.reference, "div-root@example.com", "admin");
  });
  afterAll(() => pair.close());

  const countUsers = (email: string) => (pair.db.prepare(`select count(*) as n from "user" where "email" = ?`).all([email])[0] as { n: number }).n;

  it("row 73: create-user with a password under minPasswordLength — the reference creates the user, Latchkey answers 400 PASSWORD_TOO_SHORT", async () => {
    for (const password of ["short", ""]) {
      const email = `short-${password.length}@example.com`;
      const ref = await call(pair.reference, "POST", "/admin/create-user", root.cookie, { email, password, name: "S" });
      expect(ref.status).toBe(200);
      expect(countUsers(email)).toBe(1);
      pair.db.prepare(`delete from "user" where "email" = ?`).run([email]);
      const lk = await call(pair.latchkey, "POST", "/admin/create-user", root.cookie, { email, password, name: "S" });
      expect(lk.status).toBe(400);
      expect(lk.json).toEqual({ code: "PASSWORD_TOO_SHORT", message: "Password too short" });
      expect(countUsers(email)).toBe(0);
    }
  });

  it("row 74: ban-user with banExpiresIn 0, negative or past the last date — the reference bans for ever, bans in the past or answers 500; Latchkey answers 400", async () => {
    const target = await signUp(pair, pair.reference, "div-ban@example.com");
    const ban = (h: Handler, banExpiresIn: number) => call(h, "POST", "/admin/ban-user", root.cookie, { userId: target.id, banExpiresIn });
    const reset = () => pair.db.prepare(`update "user" set "banned" = 0, "banExpires" = null, "banReason" = null where "id" = ?`).run([target.id]);
    expect((await ban(pair.reference, 0)).status).toBe(200);
    expect(userRow(pair, target.id)).toMatchObject({ banned: 1, banExpires: null });
    reset();
    expect((await ban(pair.reference, -100)).status).toBe(200);
    expect(new Date(String(userRow(pair, target.id).banExpires)).getTime()).toBeLessThan(Date.now());
    reset();
    expect((await ban(pair.reference, 1e300)).status).toBe(500);
    reset();
    for (const value of [0, -100, 1e300]) {
      const lk = await ban(pair.latchkey, value);
      expect(lk.status).toBe(400);
      expect((lk.json as { code: string }).code).toBe("VALIDATION_ERROR");
      expect(userRow(pair, target.id)).toMatchObject({ banned: 0 });
    }
  });

  it("row 75: a ban landing between the ban check and the session insert — the reference's sign-in succeeds with a usable session, Latchkey refuses it and keeps none", async () => {
    for (const [side, handler] of [["reference", pair.reference], ["latchkey", pair.latchkey]] as const) {
      const target = await signUp(pair, pair.reference, `div-race-${side}@example.com`);
      inGap = async () => {
        expect((await call(handler, "POST", "/admin/ban-user", root.cookie, { userId: target.id })).status).toBe(200);
      };
      const answer = await signIn(handler, target.email);
      expect(inGap).toBeNull();
      const live = pair.db.prepare(`select count(*) as n from "session" where "userId" = ?`).all([target.id])[0] as { n: number };
      if (side === "reference") {
        expect(answer.status).toBe(200);
        expect(live.n).toBe(1);
        const session = await call(handler, "GET", "/get-session", lastCookie(answer.response, SESSION_COOKIE));
        expect((session.json as { user: { id: string } }).user.id).toBe(target.id);
      } else {
        expect(answer.status).toBe(403);
        expect(answer.body).toEqual(BANNED);
        expect(live.n).toBe(0);
      }
    }
  });

  it("row 76: stop-impersonating without the admin_session cookie — the reference answers 500, Latchkey 400 with the same message", async () => {
    const target = await signUp(pair, pair.reference, "div-stop@example.com");
    for (const [side, handler] of [["reference", pair.reference], ["latchkey", pair.latchkey]] as const) {
      const started = await call(handler, "POST", "/admin/impersonate-user", root.cookie, { userId: target.id });
      const onlySession = lastCookie(started.response, SESSION_COOKIE);
      const stopped = await call(handler, "POST", "/admin/stop-impersonating", onlySession);
      if (side === "reference") {
        expect(stopped.status).toBe(500);
      } else {
        expect(stopped.status).toBe(400);
        expect(stopped.json).toEqual({ message: "Failed to find admin session" });
      }
    }
  });

  it("row 77: has-permission with the legacy `permission` key — the reference's schema admits it and its handler refuses it (400), Latchkey answers it", async () => {
    const body = { permission: { user: ["ban"] } };
    const ref = await call(pair.reference, "POST", "/admin/has-permission", root.cookie, body);
    expect(ref.status).toBe(400);
    expect(ref.json).toEqual({ message: "invalid permission check. no permission(s) were passed." });
    const lk = await call(pair.latchkey, "POST", "/admin/has-permission", root.cookie, body);
    expect(lk.json).toEqual({ error: null, success: true });
  });

  it("row 78: list-users with a search longer than 1,000 characters — the reference searches (on SQLite an empty list, or past 50,000 bytes a swallowed database error), Latchkey answers 400", async () => {
    const path = `/admin/list-users?searchValue=${"a".repeat(1001)}`;
    expect((await call(pair.reference, "GET", path, root.cookie)).json).toEqual({ users: [], total: 0 });
    const lk = await call(pair.latchkey, "GET", path, root.cookie);
    expect(lk.status).toBe(400);
    expect((lk.json as { code: string }).code).toBe("VALIDATION_ERROR");
  });

  it("row 79: ten parallel replays of one stop-impersonating request — the reference may answer 200 more than once, Latchkey exactly once", async () => {
    const wins: Record<string, number> = {};
    for (const [side, handler] of [["reference", pair.reference], ["latchkey", pair.latchkey]] as const) {
      let most = 0;
      for (let round = 0; round < 5; round++) {
        const target = await signUp(pair, pair.reference, `div-replay-${side}-${round}@example.com`);
        const started = await call(handler, "POST", "/admin/impersonate-user", root.cookie, { userId: target.id });
        const cookies = [lastCookie(started.response, SESSION_COOKIE), lastCookie(started.response, ADMIN_COOKIE)].join("; ");
        const answers = await Promise.all(Array.from({ length: 10 }, () => call(handler, "POST", "/admin/stop-impersonating", cookies)));
        const ok = answers.filter((a) => a.status === 200).length;
        if (side === "latchkey") expect(ok).toBe(1);
        most = Math.max(most, ok);
      }
      wins[side] = most;
    }
    expect(wins.reference).toBeGreaterThan(1);
    expect(wins.latchkey).toBe(1);
  });
});
