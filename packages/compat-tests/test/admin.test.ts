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
 * divergence rows 700-705 are asserted on both sides. The route-by-route wire diff is in
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
    const columns = (table: string) => (pair.db.prepare(`pragma table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
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
      .run(new Date(Date.now() - 60_000).toISOString(), target.id);
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
    expect(pair.db.prepare(`select count(*) as n from "session" where "token" = ?`).get(session.token)).toEqual({ n: 0 });
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
      pair.db.prepare(`update "user" set "role" = 'admin' where "id" = ?`).run(up.data!.user.id);
      const steps: unknown[] = [];
      const made = await client.admin.createUser({ email: "client-made@example.com", password: PASSWORD, name: "Made", role: "user" });
      const id = made.data!.user.id;
      steps.push(made.data?.user.email, made.data?.user.role);
      const listed = await client.admin.listUsers({ query: { searchValue: "client-", sortBy: "email", limit: 10 } });
      steps.push(listed.data?.total, listed.data?.users.map((u) => u.email), listed.data?.limit);
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
